// aider: `.aider.chat.history.md` at the root of a workspace folder. It cannot resume a chat from
// a file: a compaction becomes a handoff (an editor with the prompt).

import type { AgentModule } from '../agent';
import { AIDER_HISTORY_FILE, findAiderSessions } from './sessions';

export const aiderAgent: AgentModule = {
  id: 'aider',
  name: 'aider',
  icon: 'comment-discussion',
  settingKey: 'aider',
  envVars: [],
  where: '.aider.chat.history.md in a workspace folder',
  formats: ['aider'],
  find: findAiderSessions,
  watch: (p) => p.folders.map((f) => ({ base: f, pattern: AIDER_HISTORY_FILE })),
};
