// "Resume in Terminal": a VS Code terminal in the session's folder running the agent's own resume
// command (`claude --resume <id>`, `codex resume <id>`). Claude Code looks for the session only in
// the project folder of the directory it runs in, so the folder is the one the session records.
// The folder goes to the terminal as its cwd (no shell quoting involved); the id is checked to be a
// plain token and quoted for the shell anyway.

import * as vscode from 'vscode';
import { statOf } from '../../sessions/diskReads';
import { resumeCommand, type ResumableAgent } from '../../sessions/writeSession';
import { UserFacingError } from '../log';
import { AGENT_NAMES } from './sessionText';

export interface ResumeTarget {
  agent: ResumableAgent;
  id: string;
  /** The folder the session ran in. */
  cwd: string;
}

/** Session ids the agents write: UUIDs (letters, digits, '-'); nothing a shell would read. */
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function resumeInTerminal(target: ResumeTarget): Promise<vscode.Terminal> {
  if (!PLAIN_ID.test(target.id)) {
    throw new UserFacingError(
      vscode.l10n.t('The session id "{0}" is not one {1} writes; it is not run in a terminal.', target.id.slice(0, 80), AGENT_NAMES[target.agent]),
    );
  }
  const folder = await statOf(target.cwd);
  if (!folder?.isDirectory()) {
    throw new UserFacingError(
      vscode.l10n.t(
        'The folder this session ran in, {0}, does not exist any more; {1} resumes a session only from that folder.',
        target.cwd,
        AGENT_NAMES[target.agent],
      ),
    );
  }
  const terminal = vscode.window.createTerminal({ name: `${AGENT_NAMES[target.agent]} · ${target.id.slice(0, 8)}`, cwd: target.cwd });
  terminal.show();
  terminal.sendText(resumeCommand(target.agent, target.id));
  return terminal;
}
