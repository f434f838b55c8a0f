// "Resume in Terminal": a VS Code terminal in the session's folder running the agent's own resume
// command (`claude --resume <id>`, `codex resume <id>`). Claude Code looks for the session only in
// the project folder of the directory it runs in, so the folder is the one the session records.
// The folder goes to the terminal as its cwd (no shell quoting involved); the id is checked to be a
// plain token and quoted for the shell anyway. The agent's program is looked for on the PATH first:
// a terminal that only answers "command not found" says nothing the user can act on.

import * as vscode from 'vscode';
import { resumableAgent, type ResumableModule } from '../../sessions/agents/registry';
import { programOnPath } from '../../files/programOnPath';
import { statOf } from '../../sessions/diskReads';
import { UserFacingError } from '../log';

export interface ResumeTarget {
  /** An agent that resumes files. */
  agent: string;
  id: string;
  /** The folder the session ran in. */
  cwd: string;
  /** Where the program is looked for (default: the extension host's environment). */
  env?: Record<string, string | undefined>;
}

/** Session ids the agents write: UUIDs (letters, digits, '-'); nothing a shell would read. */
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function resumeInTerminal(target: ResumeTarget): Promise<vscode.Terminal> {
  const agent: ResumableModule | undefined = resumableAgent(target.agent);
  if (!agent) throw new UserFacingError(vscode.l10n.t('{0} cannot resume a session from a file: use Compact… for a handoff prompt.', target.agent));
  if (!PLAIN_ID.test(target.id)) {
    throw new UserFacingError(vscode.l10n.t('The session id "{0}" is not one {1} writes; it is not run in a terminal.', target.id.slice(0, 80), agent.name));
  }
  const folder = await statOf(target.cwd);
  if (!folder?.isDirectory()) {
    throw new UserFacingError(
      vscode.l10n.t('The folder this session ran in, {0}, does not exist any more; {1} resumes a session only from that folder.', target.cwd, agent.name),
    );
  }
  if (!(await programOnPath(agent.resume.program, target.env ?? process.env))) {
    throw new UserFacingError(
      vscode.l10n.t(
        '`{0}` ({1}) is not on the PATH VS Code runs with, so no terminal was opened. Install {1}, or run `{2}` in {3} from a terminal where it is.',
        agent.resume.program,
        agent.name,
        agent.resume.command(target.id),
        target.cwd,
      ),
    );
  }
  const terminal = vscode.window.createTerminal({ name: `${agent.name} · ${target.id.slice(0, 8)}`, cwd: target.cwd });
  terminal.show();
  terminal.sendText(agent.resume.command(target.id));
  return terminal;
}
