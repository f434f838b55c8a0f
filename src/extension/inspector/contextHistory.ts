// The context of a conversation over time, for the inspector's chart: each request its agent
// recorded (a Claude Code session or Codex rollout, read whole: usageLog.ts), with the compactions
// between them, against the window and the trigger; for a conversation whose file records no usage,
// our count of it at each assistant message. A file is read again only when it changed.

import { stat } from 'node:fs/promises';
import type { UsageHistory } from '../../engine/conversation/usageHistory';
import { agentOfFormat } from '../../sessions/agents/registry';
import { readUsageHistory } from '../../sessions/usageLog';
import type { ContextHistoryView, ContextMarkView } from '../../shared/protocol';
import type { ConversationStore } from '../conversationStore';
import type { SettingsStore } from '../settings';

export type HistoryProvider = (key: string) => Promise<ContextHistoryView | undefined>;

/** Points drawn at most: a longer history keeps every n-th request (and the last). */
export const MAX_POINTS = 2_000;

/** What the provider reads of the store and the settings. */
export type HistorySource = Pick<ConversationStore, 'get' | 'counterFor'>;

export function contextHistoryProvider(store: HistorySource, settings: Pick<SettingsStore, 'current'>): HistoryProvider {
  const cache = new Map<string, { stamp: string; history: UsageHistory }>();
  const recorded = async (file: string, format: Parameters<typeof readUsageHistory>[1]): Promise<UsageHistory | undefined> => {
    const s = await stat(file).catch(() => undefined);
    if (!s?.isFile()) return undefined;
    const stamp = `${s.size}:${s.mtimeMs}`;
    const hit = cache.get(file);
    if (hit?.stamp === stamp) return hit.history;
    const history = await readUsageHistory(file, format);
    cache.set(file, { stamp, history });
    return history;
  };
  return async (key) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    const { conversation, report } = entry;
    const trigger = (window: number) => Math.round(window * settings.current.triggerRatio);
    const file = conversation.meta.sourcePath;
    const h = file ? await recorded(file, conversation.format).catch(() => undefined) : undefined;
    if (h && h.requests.length > 0) {
      const window = h.window ?? report.window;
      const agent = agentOfFormat(conversation.format);
      return {
        source: 'reported',
        ...(agent ? { recordedBy: agent.name } : {}),
        points: thinned(h.requests.map((r) => ({ n: r.n, tokens: r.tokens, ...(r.at ? { at: r.at } : {}) }))),
        compactions: h.compactions.map((c): ContextMarkView => ({
          afterPoint: c.afterRequest,
          kind: c.ours ? 'ours' : (c.trigger ?? 'unknown'),
          ...(c.preTokens !== undefined ? { preTokens: c.preTokens } : {}),
          ...(c.at ? { at: c.at } : {}),
        })),
        window,
        trigger: trigger(window),
      };
    }
    // No usage recorded: our count of each request as the conversation grew — the messages up to
    // each assistant message, with what every request adds (the overhead, the reply priming) as
    // the meter counts it — and the next request, the meter's figure, last.
    const counter = await store.counterFor(key);
    const counts = conversation.messages.map((m) => counter.countMessage(m));
    let running = Math.max(0, report.total - counts.reduce((a, b) => a + b, 0));
    const points: { n: number; tokens: number; at?: string }[] = [];
    conversation.messages.forEach((m, i) => {
      running += counts[i]!;
      if (m.role === 'assistant') points.push({ n: points.length + 1, tokens: running, ...(m.timestamp ? { at: m.timestamp } : {}) });
    });
    if (points.length > 0 && conversation.messages.at(-1)!.role !== 'assistant') points.push({ n: points.length + 1, tokens: report.total });
    if (points.length === 0) return undefined;
    return { source: 'counted', points: thinned(points), compactions: [], window: report.window, trigger: trigger(report.window) };
  };
}

/** At most MAX_POINTS points, evenly, the last always kept. */
function thinned<T>(points: T[]): T[] {
  if (points.length <= MAX_POINTS) return points;
  const step = points.length / MAX_POINTS;
  const out: T[] = [];
  for (let i = 0; i < MAX_POINTS - 1; i++) out.push(points[Math.floor(i * step)]!);
  out.push(points.at(-1)!);
  return out;
}
