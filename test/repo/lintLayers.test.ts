// The layers of eslint.config.mjs hold: a file that breaks one fails lint with the rule that
// guards it, and the imports each layer is allowed still pass. The files are linted in memory
// under paths inside each layer, through ESLint's Node API with the repository's own config.

import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/transcripts';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

/** The rules that fail `source` as if it were the file at `path` (relative to the repository). */
async function failures(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${repoRoot}/${path}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const ENGINE_FILE = 'src/engine/lintFixture.ts';
const WEBVIEW_FILE = 'webview-ui/src/views/lintFixture.ts';
const SHARED_FILE = 'src/shared/lintFixture.ts';

describe('the engine is a pure library', () => {
  it('fails on an import of the extension host', async () => {
    const found = await failures(ENGINE_FILE, "import { registerLog } from '../extension/log';\nexport const f = registerLog;\n");
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*\.\.\/extension\/log.*pure library/)]);
  });

  it('fails on a type-only import of the extension host too', async () => {
    const found = await failures(ENGINE_FILE, "import type { Logger } from '../extension/log';\nexport type L = Logger;\n");
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: /)]);
  });

  it.each([
    ['the CLI', '../cli/io'],
    ['the Node side', '../files/atomicWrite'],
    ['the summarizers', '../summarizers/openaiClient'],
    ['the webview', '../../webview-ui/src/app'],
    ['the tests', '../../test/helpers/transcripts'],
  ])('fails on an import of %s', async (_what, from) => {
    const found = await failures(ENGINE_FILE, `import * as m from '${from}';\nexport const f = m;\n`);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: /)]);
  });

  it.each(['node:fs', 'fs', 'node:path', 'crypto', 'vscode', 'openai', 'openai/resources'])('fails on an import of %s', async (mod) => {
    const found = await failures(ENGINE_FILE, `import * as m from '${mod}';\nexport const f = m;\n`);
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /)]);
  });

  it.each(['node:fs', 'fs/promises', 'vscode', 'openai'])('fails on %s loaded with import()', async (mod) => {
    const found = await failures(ENGINE_FILE, `export const load = () => import('${mod}');\n`);
    expect(found).toEqual([expect.stringMatching(/^no-restricted-syntax: .*not even loaded lazily/)]);
  });

  it('fails on a type-only import of vscode', async () => {
    const found = await failures(ENGINE_FILE, "import type * as vscode from 'vscode';\nexport type U = vscode.Uri;\n");
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*vscode/)]);
  });

  it('passes imports inside the engine and of src/shared', async () => {
    const source = [
      "import { messageText } from './conversation/model';",
      "import type { InspectorModel } from '../shared/protocol';",
      "export const ranks = () => import('js-tiktoken/ranks/o200k_base');",
      'export const f = messageText;',
      'export type M = InspectorModel;',
      '',
    ].join('\n');
    expect(await failures(ENGINE_FILE, source)).toEqual([]);
  });
});

describe('the webview reaches the rest of the repository only through src/shared', () => {
  it('fails on a value from the engine', async () => {
    const found = await failures(WEBVIEW_FILE, "import { DECISIONS } from '../../../src/engine/result';\nexport const d = DECISIONS;\n");
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*only through src\/shared/)]);
  });

  it('fails on the extension host and on Node', async () => {
    const found = await failures(
      WEBVIEW_FILE,
      "import { registerLog } from '../../../src/extension/log';\nimport { readFileSync } from 'node:fs';\nexport const f = [registerLog, readFileSync];\n",
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: /), expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /)]);
  });

  it('passes src/shared and its own modules', async () => {
    const source =
      "import type { InspectorModel } from '../../../src/shared/protocol';\nimport { h } from '../dom/element';\nexport const f = h;\nexport type M = InspectorModel;\n";
    expect(await failures(WEBVIEW_FILE, source)).toEqual([]);
  });
});

describe('src/shared holds types only', () => {
  it('fails on a runtime import, even of the engine', async () => {
    const found = await failures(SHARED_FILE, "import { DECISIONS } from '../engine/result';\nexport const d = DECISIONS;\n");
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*types only/)]);
  });

  it('fails on the extension host, even for a type', async () => {
    const found = await failures(SHARED_FILE, "import type { Logger } from '../extension/log';\nexport type L = Logger;\n");
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: /)]);
  });

  it('passes type-only imports of the engine', async () => {
    expect(await failures(SHARED_FILE, "import type { Decision } from '../engine/result';\nexport type D = Decision;\n")).toEqual([]);
  });
});

describe('the CLI side runs without the extension host', () => {
  it('fails on vscode and on src/extension', async () => {
    const found = await failures(
      'src/cli/lintFixture.ts',
      "import * as vscode from 'vscode';\nimport { registerLog } from '../extension/log';\nexport const f = [vscode, registerLog];\n",
    );
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /), expect.stringMatching(/^import-x\/no-restricted-paths: /)]);
  });
});
