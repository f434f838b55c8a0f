// The agents the product knows, one module each (agent.ts says what a module holds). This list is
// the only place that names them all: adding an agent is its folder, its tests and one line here.

import type { SourceFormat, UsageSource } from '../../engine/conversation/model';
import type { AgentModule, AgentPlaces, AgentResume, AgentStore } from './agent';
import { aiderAgent } from './aider/agent';
import { claudeCodeAgent } from './claude-code/agent';
import { clineAgent } from './cline/agent';
import { codexAgent } from './codex/agent';
import { copilotChatAgent } from './copilot-chat/agent';
import { copilotCliAgent } from './copilot-cli/agent';
import { geminiCliAgent } from './gemini-cli/agent';
import { qwenCodeAgent } from './qwen-code/agent';
import { opencodeAgent } from './opencode/agent';
import { rooCodeAgent } from './roo-code/agent';

/** In the order the Sessions view groups them. */
export const AGENT_MODULES: readonly AgentModule[] = [
  claudeCodeAgent,
  codexAgent,
  geminiCliAgent,
  qwenCodeAgent,
  opencodeAgent,
  copilotCliAgent,
  clineAgent,
  rooCodeAgent,
  copilotChatAgent,
  aiderAgent,
];

/** Every agent's id, in the registry's order. */
export const AGENT_IDS: readonly string[] = AGENT_MODULES.map((a) => a.id);

export function agentById(id: string): AgentModule | undefined {
  return AGENT_MODULES.find((a) => a.id === id);
}

/** The agent's product name; the id itself for one the registry does not know. */
export function agentName(id: string): string {
  return agentById(id)?.name ?? id;
}

export type ResumableModule = AgentModule & { resume: AgentResume };

/** The agents that resume a session from a file we write. */
export function resumableAgents(): ResumableModule[] {
  return AGENT_MODULES.filter((a): a is ResumableModule => a.resume !== undefined);
}

export function resumableAgent(id: string): ResumableModule | undefined {
  const a = agentById(id);
  return a?.resume ? (a as ResumableModule) : undefined;
}

/** The agent whose store holds the session `file` names (`<store>#<id>`), if any. */
export function storeOwning(file: string): (AgentModule & { store: AgentStore }) | undefined {
  return AGENT_MODULES.find((a): a is AgentModule & { store: AgentStore } => a.store?.owns(file) === true);
}

/** The agent whose files a format is, if any. */
export function agentOfFormat(format: SourceFormat): AgentModule | undefined {
  return AGENT_MODULES.find((a) => a.formats.includes(format));
}

/** Who reported a usage figure, as the meter and `ctxc count` name it: the agent, or `theExport`
 *  (in the caller's language) for an API export. */
export function usageSourceLabel(source: UsageSource, theExport = 'the export'): string {
  return source === 'anthropic' || source === 'openai' ? theExport : agentName(source);
}

/** The folders the agents keep the sessions of `places` in: each module's watched folders (the
 *  same the extension watches), without repeats. What a caller may read as sessions by path. */
export function sessionRoots(places: AgentPlaces): string[] {
  return [...new Set(AGENT_MODULES.flatMap((a) => a.watch(places).map((w) => w.base)))];
}
