// Copilot Chat in VS Code: `workspaceStorage/<hash>/chatSessions/<id>.json|.jsonl`, read only. No
// API gives an extension another participant's history and nothing can write it back: a compaction
// becomes a handoff into a new chat, with the prompt in its input.

import { join } from 'node:path';
import type { AgentModule } from '../agent';
import { findCopilotChatSessions } from './sessions';

export const copilotChatAgent: AgentModule = {
  id: 'copilot-chat',
  name: 'Copilot Chat',
  icon: 'copilot',
  settingKey: 'copilotChat',
  envVars: [],
  where: "the workspace's chatSessions in VS Code's workspace storage (read only)",
  formats: ['copilot-chat'],
  find: findCopilotChatSessions,
  watch: (p) => p.workspaceStorage.map((w) => ({ base: join(w, 'chatSessions'), pattern: '*.{json,jsonl}' })),
  handoff: { vscodeChat: true },
};
