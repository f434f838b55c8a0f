// Undo of a compaction written into an agent (a new Claude Code or Codex session): the original
// was never changed, so undoing is switching back to it — the meter and Resume in Terminal follow
// the original again (a pin on the written session moves back) — and, when the person says so,
// moving the written session to the trash: first what the agent module's resume.unregister undoes
// (Codex's index row), then the file, through VS Code's trash, or where VS Code's file system has
// none (a remote server) the freedesktop.org trash of the machine that holds it. A kept file is set
// aside: the meter does not follow it until its agent writes to it again.

import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { moveToTrash } from '../../files/freedesktopTrash';
import { statOf } from '../../sessions/diskReads';
import { agentName, resumableAgent } from '../../sessions/agents/registry';
import type { ConversationStore } from '../conversationStore';
import { UserFacingError, type Logger } from '../log';
import type { MeterFocus } from '../meter/meterFocus';
import { notificationText } from '../notificationText';
import { groupedNumber } from '../meter/meterText';
import type { SessionConversations } from './sessionConversations';
import type { SessionPlaces } from './sessionWatch';
import type { WorkspaceSessions } from './workspaceSessions';
import type { WrittenRecord, WrittenSessions } from './writtenSessions';

export interface UndoWrittenDeps {
  store: ConversationStore;
  focus: MeterFocus;
  log: Logger;
  sessions: WorkspaceSessions;
  conversations: SessionConversations;
  written: WrittenSessions;
  places: () => SessionPlaces;
  /** The follower looks again at what it should follow. */
  refollow: () => Promise<void>;
}

/** Where the written file went: VS Code's trash, or the freedesktop trash folder it is in now. */
type Trashed = { where: 'vscode' } | { where: 'freedesktop'; path: string };

/** Undoes `record`, after asking; false when the person declined. */
export async function undoWritten(d: UndoWrittenDeps, record: WrittenRecord): Promise<boolean> {
  const name = agentName(record.written.agent);
  const original = d.sessions.byFile(record.from.file);
  if (!original) {
    throw new UserFacingError(
      vscode.l10n.t('The original session {0} is no longer among the sessions of this workspace: nothing was undone.', record.from.file),
    );
  }
  const toTrash = vscode.l10n.t('Undo and Move to Trash');
  const keep = vscode.l10n.t('Undo, Keep the File');
  const answer = await vscode.window.showWarningMessage(
    notificationText(vscode.l10n.t('Undo the compaction of {0}?', record.from.label)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The meter and Resume in Terminal follow the original session again; it was never changed. The {0} session the compaction wrote, {1}, can go to the trash.',
        name,
        record.written.file,
      ),
    },
    toTrash,
    keep,
  );
  if (answer !== toTrash && answer !== keep) return false;
  const target = await d.conversations.open(original);
  const writtenKey = d.conversations.keyOf(record.written);
  d.focus.show(target.key, 'undone', writtenKey);
  let trashed: Trashed | undefined;
  const markUndone = async () => {
    const kept = trashed ? undefined : await statOf(record.written.file);
    await d.written.markUndone(record, { at: new Date().toISOString(), trashed: !!trashed, ...(kept ? { mtimeMs: kept.mtimeMs } : {}) });
  };
  try {
    if (answer === toTrash) trashed = await trashWritten(record, d.places(), d.log);
  } finally {
    // Switched back whatever became of the file: a file that could not go is kept, set aside.
    await markUndone();
  }
  if (trashed) d.store.remove(writtenKey);
  await d.sessions.refresh();
  await d.refollow();
  d.log.info(
    `undid the compaction of ${record.from.file} into ${record.written.file} (${trashed ? `moved to ${trashed.where === 'vscode' ? 'the trash' : trashed.path}` : 'kept'})`,
  );
  const total = d.store.get(target.key)?.report.total ?? target.report.total;
  const said = vscode.l10n.t('Undone: the meter follows {0} again ({1} tokens), as it was before the compaction.', record.from.label, groupedNumber(total));
  const where = !trashed
    ? vscode.l10n.t('The compacted session stays at {0}; the meter leaves it alone until {1} writes to it.', record.written.file, name)
    : trashed.where === 'vscode'
      ? vscode.l10n.t('The compacted session was moved to the trash.')
      : vscode.l10n.t('The compacted session was moved to the trash ({0}).', trashed.path);
  void vscode.window.showInformationMessage(notificationText(`${said} ${where}`));
  return true;
}

async function trashWritten(record: WrittenRecord, places: SessionPlaces, log: Logger): Promise<Trashed> {
  const { written } = record;
  const resume = resumableAgent(written.agent)?.resume;
  if (resume?.unregister) {
    const ctx = { env: places.env, home: places.home, cwd: written.cwd, now: new Date(), newUuid: randomUUID, inherited: {} };
    await resume
      .unregister({ id: written.id, file: written.file, text: '', notes: [] }, ctx)
      .catch((err: unknown) => log.warn(`taking ${written.file} out of ${agentName(written.agent)}'s own list failed: ${(err as Error).message}`));
  }
  try {
    await vscode.workspace.fs.delete(vscode.Uri.file(written.file), { useTrash: true });
    return { where: 'vscode' };
  } catch (err) {
    // A file system without a trash (VS Code on a remote server) refuses useTrash.
    if (process.platform !== 'linux') {
      throw new UserFacingError(
        vscode.l10n.t('The compacted session {0} could not be moved to the trash: {1}. It was left where it is.', written.file, (err as Error).message),
      );
    }
    log.info(`VS Code's file system has no trash here (${(err as Error).message}); using the freedesktop trash`);
    return { where: 'freedesktop', path: await moveToTrash(written.file, places) };
  }
}
