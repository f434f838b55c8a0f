// Tools for Copilot's agent mode (package.json languageModelTools, registered with
// vscode.lm.registerTool), on the same session tools as the MCP server (src/sessions/sessionTools.ts):
//
//   contextCompactor_sessionUsage    (#sessionUsage) what fills this workspace's agent sessions:
//                                    each session's tokens against its window, and the breakdown
//                                    of the most recently active one. Read-only: no confirmation.
//   contextCompactor_compactSession  (#compactSession) compacts the most recently active session
//                                    (or the one named) and returns the handoff to continue from.
//                                    Asks first: the confirmation names the session and its size.
//
// What they return goes to the model: the sessions' titles and texts are the sessions' own words,
// so they are quoted as data (text/quoteAsData.ts: one line, tag openers defused, Markdown escaped;
// the handoff quotes every message).

import { dirname } from 'node:path';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { figuresText } from '../../engine/figures';
import { escapeMarkdown } from '../../engine/text/markdownEscape';
import { dataLine } from '../../engine/text/quoteAsData';
import { oneLine } from '../../engine/text/textCut';
import { categoryRowLabel, TOKEN_CATEGORIES } from '../../engine/tokens/tokenCounter';
import type { AgentId, AgentSession } from '../../sessions/agentSession';
import { AGENT_IDS } from '../../sessions/agents/registry';
import { listSessions, type SessionQuery } from '../../sessions/sessionCatalog';
import { compactSession, countSession, SessionToolError, type ToolContext } from '../../sessions/sessionTools';
import type { CountingRule } from '../../sessions/compactionService';
import { localHandoffWords } from '../commands/handoff';
import { DEFAULT_SETTINGS, type CompactorSettings, type SettingsStore } from '../settings';
import { requestFromSettings } from '../store/engineOptions';
import { LM_TOOLS } from '../ids';
import type { Logger } from '../log';

/** Sessions listed in the usage report; the rest are counted. */
export const USAGE_SESSIONS_MAX = 15;
const TITLE_CHARS = 80;

interface UsageInput {
  agent?: string;
}

interface CompactInput {
  sessionId?: string;
}

/** How the tools count and compact: the settings, as the meter and the Sessions view do. */
function countingOf(settings: CompactorSettings): CountingRule {
  return { fallbackModel: settings.model, ...(settings.maxContextTokens > 0 ? { maxContextTokens: settings.maxContextTokens } : {}) };
}

/** Where this workspace's sessions are: its folders, and this editor's own storage folders. */
function sessionQuery(context: vscode.ExtensionContext, settings: CompactorSettings, signal?: AbortSignal): SessionQuery {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  return {
    folders,
    env: process.env,
    home: homedir(),
    globalStorage: [dirname(context.globalStorageUri.fsPath)],
    ...(context.storageUri ? { workspaceStorage: [dirname(context.storageUri.fsPath)] } : {}),
    ...(signal ? { signal } : {}),
    counting: countingOf(settings),
  };
}

function toolContext(settings: CompactorSettings, signal?: AbortSignal): ToolContext {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
  return { env: process.env, home: homedir(), cwd: folder, ...(signal ? { signal } : {}), counting: countingOf(settings) };
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const ac = new AbortController();
  if (token.isCancellationRequested) ac.abort();
  token.onCancellationRequested(() => ac.abort());
  return ac.signal;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const title = (s: AgentSession) => escapeMarkdown(dataLine(oneLine(s.title || '(no request)', TITLE_CHARS)));

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** The sessions the tools work on: readable ones, newest first, of one agent if asked. */
async function workspaceSessions(
  context: vscode.ExtensionContext,
  settings: CompactorSettings,
  agent: AgentId | undefined,
  signal?: AbortSignal,
): Promise<AgentSession[]> {
  const q = sessionQuery(context, settings, signal);
  if (q.folders.length === 0) throw new Error(vscode.l10n.t('No folder is open: agent sessions are found by the folder they ran in.'));
  const all = await listSessions(agent ? { ...q, agents: Object.fromEntries(AGENT_IDS.map((a) => [a, a === agent])) } : q);
  return all.filter((s) => !s.error);
}

/** The report the usage tool returns (English: it is read by the model). */
export async function usageReport(
  context: vscode.ExtensionContext,
  input: UsageInput,
  signal?: AbortSignal,
  settings: CompactorSettings = DEFAULT_SETTINGS,
): Promise<string> {
  const agent = input.agent !== undefined && AGENT_IDS.includes(input.agent) ? input.agent : undefined;
  const sessions = await workspaceSessions(context, settings, agent, signal);
  if (sessions.length === 0) return `No ${agent ?? 'agent'} sessions were found for this workspace.`;
  const lines = [
    `${sessions.length} agent session${sessions.length === 1 ? '' : 's'} of this workspace, most recently active first (tokens the agent sends when the session is resumed / the model's window):`,
    '',
  ];
  for (const s of sessions.slice(0, USAGE_SESSIONS_MAX)) {
    const pct = s.window > 0 ? ` (${((s.tokens / s.window) * 100).toFixed(1)}%)` : '';
    lines.push(`- ${s.agent} ${s.id}: ${fmt(s.tokens)} / ${fmt(s.window)}${pct}, updated ${s.updated.slice(0, 16).replace('T', ' ')}: "${title(s)}"`);
  }
  if (sessions.length > USAGE_SESSIONS_MAX) lines.push(`- … and ${sessions.length - USAGE_SESSIONS_MAX} more`);
  const active = sessions[0]!;
  const c = await countSession({ file: active.file }, toolContext(settings, signal));
  lines.push(
    '',
    `What fills the most recently active one (${active.agent} ${active.id}, ${fmt(c.total)} of ${fmt(c.window)} tokens, ${c.percent}%; model ${c.model}):`,
  );
  for (const cat of [...TOKEN_CATEGORIES].sort((a, b) => c.byCategory[b] - c.byCategory[a])) {
    if (c.byCategory[cat] > 0) lines.push(`- ${categoryRowLabel(cat)}: ${fmt(c.byCategory[cat])} tokens (${c.share[cat]}%)`);
  }
  if (c.historyTokens > 0) lines.push(`- not sent any more (before a compaction, or on rewound branches): ${fmt(c.historyTokens)} tokens`);
  return lines.join('\n');
}

/** The session the compaction tool works on: the one named, else the most recently active. */
async function targetSession(context: vscode.ExtensionContext, settings: CompactorSettings, input: CompactInput, signal?: AbortSignal): Promise<AgentSession> {
  const sessions = await workspaceSessions(context, settings, undefined, signal);
  const id = input.sessionId?.trim();
  if (id) {
    const found = sessions.filter((s) => s.id === id || (id.length >= 8 && s.id.startsWith(id)));
    if (found.length !== 1) throw new Error(vscode.l10n.t('No single agent session of this workspace has the id {0}.', id.slice(0, 80)));
    return found[0]!;
  }
  if (sessions.length === 0) throw new Error(vscode.l10n.t('No agent sessions were found for this workspace.'));
  return sessions[0]!;
}

export function registerLanguageModelTools(context: vscode.ExtensionContext, log: Logger, settings: SettingsStore): void {
  if (typeof vscode.lm.registerTool !== 'function') {
    log.info('this VS Code has no language model tools API: the Copilot tools are not offered');
    return;
  }
  context.subscriptions.push(
    vscode.lm.registerTool<UsageInput>(LM_TOOLS.sessionUsage, {
      prepareInvocation: () => ({ invocationMessage: vscode.l10n.t("Reading this workspace's agent sessions") }),
      invoke: async (options, token) => textResult(await usageReport(context, options.input ?? {}, signalOf(token), settings.current)),
    }),
    vscode.lm.registerTool<CompactInput>(LM_TOOLS.compactSession, {
      prepareInvocation: async (options, token) => {
        const s = await targetSession(context, settings.current, options.input ?? {}, signalOf(token));
        return {
          invocationMessage: vscode.l10n.t('Compacting the {0} session', s.agent),
          confirmationMessages: {
            title: vscode.l10n.t('Compact an agent session?'),
            message: new vscode.MarkdownString(
              vscode.l10n.t(
                'Compact the {0} session "{1}" ({2} of {3} tokens) into a summary and its recent turns, and hand that to the chat. The session file is not changed.',
                s.agent,
                title(s),
                fmt(s.tokens),
                fmt(s.window),
              ),
            ),
          },
        };
      },
      invoke: async (options, token) => {
        const signal = signalOf(token);
        const s = await targetSession(context, settings.current, options.input ?? {}, signal);
        try {
          const r = await compactSession({ file: s.file }, toolContext(settings.current, signal), {
            to: 'handoff',
            words: localHandoffWords,
            request: requestFromSettings(settings.current),
          });
          if (r.kind !== 'handoff') throw new Error('expected a handoff');
          const figures = figuresText(r.figures);
          log.info(`compacted ${s.agent} session ${s.id} for a language model tool: ${figures}`);
          return textResult(`${s.agent} session ${s.id}: ${figures}. The handoff follows.\n\n${r.text}`);
        } catch (e) {
          if (e instanceof SessionToolError) throw new Error(e.message, { cause: e });
          throw e;
        }
      },
    }),
  );
}
