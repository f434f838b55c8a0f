// Where a compaction of an agent session goes (the store's ApplyElsewhere): never into the
// session's own file.
// - Claude Code and Codex: a new session written beside the original (src/sessions/writeSession.ts,
//   atomically, with a fresh id) where the agent will look for it from this workspace — the folder
//   the session records when it exists on this machine, else the workspace folder —, taking over
//   what the original measured (its overhead, model, window: the new session is metered as the
//   confirmation said), shown under its original in the Sessions view and in the meter, and offered
//   to resume in a terminal. The notification says where it was written; a failure, also of the
//   resume, is a notification too. The original is untouched: Undo switches back to it
//   (undoWritten.ts, from the record the sessions feature keeps of every session written).
// - Cline, Roo Code, Copilot Chat, aider: a handoff — the summary and the recent turns as a prompt
//   (commands/handoff.ts, transcript text fenced) on the clipboard, in a new chat where the agent
//   offers one. None of them can resume a session from a file.

import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AgentId, AgentSession } from '../../sessions/agentSession';
import { agentById, agentName } from '../../sessions/agents/registry';
import { AgentUnavailableError, writeCompactedSession, type WrittenSession } from '../../sessions/writeSession';
import { handoffText } from '../commands/handoff';
import type { CommandDeps } from '../commands/commandDeps';
import type { Compaction } from '../conversationService';
import type { ApplyElsewhere } from '../conversationStore';
import { ratioAndNotInFile } from '../figuresText';
import { userMessageOf, UserFacingError } from '../log';
import { notificationText } from '../notificationText';
import { groupedNumber } from '../meter/meterText';
import { resumeInTerminal } from './resumeTerminal';
import { sessionLabel } from './sessionText';
import type { SessionPlaces } from './sessionWatch';

export interface WriteBackDeps {
  deps: Pick<CommandDeps, 'engine' | 'log' | 'store'>;
  places: () => SessionPlaces;
  /** The store key of a session. */
  keyOf: (s: Pick<AgentSession, 'file'>) => string;
  /** Called with a session just written (and the session it came from), so the view lists it at
   *  once and the meter shows it; false when the listing does not show it. */
  written: (w: WrittenSession, from: AgentSession) => Promise<boolean>;
}

/** The agent a session compacts back into, when it is one that resumes from a file. */
export function resumableAgent(s: Pick<AgentSession, 'agent' | 'resumable' | 'relation'>): string | undefined {
  if (!s.resumable || s.relation === 'subagent') return undefined;
  return agentById(s.agent)?.resume ? s.agent : undefined;
}

export function writeBackFor(session: AgentSession, w: WriteBackDeps): ApplyElsewhere {
  const agent = resumableAgent(session);
  const name = agentName(session.agent);
  if (agent) {
    return {
      effect: vscode.l10n.t(
        'Compact writes a new {0} session from the summary and the recent turns, and leaves this one as it is: Undo switches back to it.',
        name,
      ),
      apply: async (compaction, before) => {
        const p = w.places();
        let written: WrittenSession;
        try {
          // No folder is forced: the one the session records when it exists here, else this
          // workspace's (a session recorded on another machine names a folder this one lacks).
          written = await writeCompactedSession(agent, before, compaction.result, {
            env: p.env,
            home: p.home,
            fallbackCwd: p.folders[0] ?? p.home,
            sourceFile: basename(session.file),
            inherited: compaction.inherited,
          });
        } catch (err) {
          // The agent cannot take a session here now (opencode is not on the PATH): hand off instead.
          const target = err instanceof AgentUnavailableError ? w.deps.store.get(w.keyOf(session)) : undefined;
          if (target) {
            w.deps.log.warn(`${name}: ${(err as Error).message}; handed off instead`);
            void vscode.window.showWarningMessage(
              vscode.l10n.t('{0}: {1}. The summary and the recent turns are handed off instead.', name, (err as Error).message),
            );
            await handOff(session.agent, handoffText(w.deps, target, compaction.result), w.deps.log);
            return;
          }
          throw new UserFacingError(
            vscode.l10n.t('The new {0} session could not be written: {1}. Nothing was written, and the original is untouched.', name, (err as Error).message),
          );
        }
        for (const n of written.notes) w.deps.log.info(`${written.file}: ${n}`);
        w.deps.log.info(`wrote the compacted ${name} session ${written.file} (from ${session.file}); resume: ${written.command}`);
        const listed = await w.written(written, session).catch((err: unknown) => {
          w.deps.log.error(`listing ${written.file} failed`, err);
          return false;
        });
        void announceWritten(session, written, compaction, listed, w.deps.log);
      },
    };
  }
  return {
    effect: vscode.l10n.t(
      '{0} cannot resume a session from a file: Compact copies the summary and the recent turns as a prompt for a new chat, and changes nothing here.',
      name,
    ),
    apply: async (compaction) => {
      const target = w.deps.store.get(w.keyOf(session));
      if (!target) throw new UserFacingError(vscode.l10n.t('{0} is no longer open.', sessionLabel(session)));
      await handOff(session.agent, handoffText(w.deps, target, compaction.result), w.deps.log);
    },
  };
}

/** What was written and where, with the compaction's figures and Resume in Terminal one click
 *  away; a resume that fails says why in a notification. */
async function announceWritten(
  session: AgentSession,
  written: WrittenSession,
  compaction: Compaction,
  listed: boolean,
  log: WriteBackDeps['deps']['log'],
): Promise<void> {
  const resume = vscode.l10n.t('Resume in Terminal');
  const { figures } = compaction;
  const text = [
    vscode.l10n.t(
      'Compacted into a new {0} session: {1} → {2} tokens {3}.',
      agentName(session.agent),
      groupedNumber(figures.before.total),
      groupedNumber(figures.after.total),
      ratioAndNotInFile(figures),
    ),
    vscode.l10n.t('Written to {0}, resumed from {1}.', written.file, written.cwd),
    listed ? '' : vscode.l10n.t('It is not among the sessions of this workspace: its agent looks for it from that folder.'),
    vscode.l10n.t('The original session is untouched: Undo Last Compaction switches back to it.'),
  ]
    .filter(Boolean)
    .join(' ');
  const choice = await vscode.window.showInformationMessage(notificationText(text), resume);
  if (choice !== resume) return;
  try {
    await resumeInTerminal({ agent: written.agent, id: written.id, cwd: written.cwd });
  } catch (err) {
    log.error(`resuming ${written.file} failed`, err);
    void vscode.window.showErrorMessage(notificationText(vscode.l10n.t('Resume in Terminal failed: {0}', userMessageOf(err))));
  }
}

/** VS Code's chat: opened with the handoff in its input, not sent. */
const CHAT_NEW = 'workbench.action.chat.newChat';
const CHAT_OPEN = 'workbench.action.chat.open';

/** The handoff on the clipboard, in a new chat where the agent offers one, else in an editor. */
export async function handOff(agent: AgentId, text: string, log: CommandDeps['log']): Promise<'chat' | 'task' | 'editor'> {
  await vscode.env.clipboard.writeText(text);
  const name = agentName(agent);
  const handoff = agentById(agent)?.handoff;
  const newTask = handoff?.newTaskCommand;
  const available = new Set(await vscode.commands.getCommands(true));
  let where: 'chat' | 'task' | 'editor' = 'editor';
  try {
    if (handoff?.vscodeChat && available.has(CHAT_OPEN)) {
      if (available.has(CHAT_NEW)) await vscode.commands.executeCommand(CHAT_NEW);
      await vscode.commands.executeCommand(CHAT_OPEN, { query: text, isPartialQuery: true });
      where = 'chat';
    } else if (newTask && available.has(newTask)) {
      await vscode.commands.executeCommand(newTask);
      where = 'task';
    }
  } catch (err) {
    log.warn(`opening a new ${name} chat failed: ${(err as Error).message}`);
    where = 'editor';
  }
  if (where === 'editor') {
    const doc = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
    await vscode.window.showTextDocument(doc, { preview: false });
  }
  const message =
    where === 'chat'
      ? vscode.l10n.t(
          '{0} cannot resume a session from a file. A new chat is open with the handoff (the summary and the recent turns) in its input, and it is on the clipboard: read it, then send it.',
          name,
        )
      : where === 'task'
        ? vscode.l10n.t(
            '{0} cannot resume a task from a file. A new task is open and the handoff (the summary and the recent turns) is on the clipboard: paste it as the task.',
            name,
          )
        : vscode.l10n.t(
            '{0} cannot resume a session from a file. The handoff (the summary and the recent turns) is open in an editor and on the clipboard: start a new session with it.',
            name,
          );
  void vscode.window.showInformationMessage(message);
  log.info(`handed off a ${name} session (${text.length} characters) to the ${where}`);
  return where;
}
