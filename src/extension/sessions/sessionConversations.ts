// Agent sessions as conversations of the store, so the meter, Compact, Inspect and Usage work on
// them as on any transcript. A session's key is its file's URI with a fragment: the same file
// opened in an editor is another conversation (whose compactions are views in the extension's
// storage), while export still knows the file and never writes over it. Compacting a session
// goes elsewhere (sessionWriteBack.ts): its conversation, count and steps never change. Its count
// is the one the Sessions view made (WorkspaceSessions, with the store's counters).

import * as vscode from 'vscode';
import type { ImportResult } from '../../engine/conversation/model';
import type { TokenReport } from '../../engine/tokens/report';
import type { AgentSession } from '../../sessions/agentSession';
import type { ActiveConversation } from '../conversationService';
import type { ApplyElsewhere, ConversationStore } from '../conversationStore';
import { UserFacingError } from '../log';
import { sessionLabel } from './sessionText';
import type { WorkspaceSessions } from './workspaceSessions';

/** The fragment that marks an agent session's key. */
const SESSION_FRAGMENT = 'agent-session';

/** The store key of the session in `file`. */
export function sessionKey(file: string): string {
  return vscode.Uri.file(file).with({ fragment: SESSION_FRAGMENT }).toString();
}

/** Whether a store key is an agent session's (a conversation the meter follows as its agent writes). */
export function isSessionKey(key: string): boolean {
  return key.endsWith(`#${SESSION_FRAGMENT}`);
}

export class SessionConversations {
  constructor(
    private readonly store: ConversationStore,
    private readonly sessions: WorkspaceSessions,
    private readonly applyElsewhere: (s: AgentSession) => ApplyElsewhere,
  ) {}

  keyOf(s: Pick<AgentSession, 'file'>): string {
    return sessionKey(s.file);
  }

  /** Adds or refreshes the session's conversation from what was read of it, with the count the
   *  Sessions view shows (made with the store's counter: the session is counted once). */
  put(session: AgentSession, result: ImportResult, report: TokenReport): Promise<ActiveConversation> {
    return this.store.upsertSource(this.keyOf(session), result.conversation, {
      label: sessionLabel(session),
      kind: 'transcript',
      uri: vscode.Uri.file(session.file),
      applyElsewhere: this.applyElsewhere(session),
      report,
    });
  }

  /** The session read now and put into the store; an error the user can read when it cannot be. */
  async open(session: AgentSession): Promise<ActiveConversation> {
    const read = await this.sessions.read(session);
    if ('error' in read) throw new UserFacingError(vscode.l10n.t('{0} cannot be read: {1}', sessionLabel(session), read.error));
    return this.put(session, read.result, read.report);
  }
}
