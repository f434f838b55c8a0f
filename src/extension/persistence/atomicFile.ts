// Files the extension writes (archives, state, exports) are written whole or not at all, by
// writeFileAtomic (src/files/atomicWrite.ts); this adds the Uri the export command is given.

import * as vscode from 'vscode';
import { writeFileAtomic } from '../../files/atomicWrite';

/** Writes `data` to `uri`: atomic on disk, never over one of the `protect` files (also through a
 *  link to one); other schemes (remote, virtual) get the file system's own write. */
export async function writeUriAtomic(uri: vscode.Uri, data: string | Uint8Array, protect: readonly vscode.Uri[] = []): Promise<void> {
  if (uri.scheme === 'file') return writeFileAtomic(uri.fsPath, data, { protect: protect.filter((p) => p.scheme === 'file').map((p) => p.fsPath) });
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  await vscode.workspace.fs.writeFile(uri, bytes);
}
