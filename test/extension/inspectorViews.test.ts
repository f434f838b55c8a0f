// What the inspector shows beside the compaction, host side: the biggest items of a real
// session, its context over time read from the agent's usage records (or counted), what
// compacting costs, and the edits that compact part of the conversation (up to a message, or one
// tool result offloaded) reaching the service as the engine's edits.

import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import type { Conversation } from '../../src/engine/conversation/model';
import { compactionCost } from '../../src/engine/compactionCost';
import { createTokenCounter, type CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { modelPrice } from '../../src/engine/tokens/modelPrices';
import { tokenReport } from '../../src/engine/tokens/report';
import { BIGGEST_ITEMS, biggestItems, callLabel } from '../../src/extension/inspector/biggestItems';
import { contextHistoryProvider, type HistorySource } from '../../src/extension/inspector/contextHistory';
import { registerInspector } from '../../src/extension/inspector/registerInspector';
import type { ActiveConversation } from '../../src/extension/conversationService';
import type { HostToWebview, InspectorModel } from '../../src/shared/protocol';
import { readUsageHistory } from '../../src/sessions/usageLog';
import {
  createExtensionContext,
  createProfile,
  disposeContext,
  fake,
  resetFake,
  ViewColumn,
  type FakeExtensionContext,
  type FakeWebviewPanel,
} from '../fakes/vscode';
import { FakeService, conversation } from '../helpers/inspectorService';
import { transcriptPath } from '../helpers/transcripts';
import { loadTranscript } from '../webview/compactionFixture';

const KILIMAN = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
const root = mkdtempSync(join(tmpdir(), 'ctxc-inspector-views-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter: CachedTokenCounter;
let kiliman: Conversation;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
  kiliman = loadTranscript(KILIMAN);
});

function entryOf(conv: Conversation, key = 'k'): ActiveConversation {
  return { key, label: 'k', kind: 'transcript', conversation: conv, report: tokenReport(conv.messages, counter), compactions: 0, model: 'gpt-4o' };
}

function sourceOf(entry: ActiveConversation): HistorySource {
  return { get: (k) => (k === entry.key ? entry : undefined), counterFor: async () => counter } as HistorySource;
}

const settings = { current: { triggerRatio: 0.8 } } as Parameters<typeof contextHistoryProvider>[1];

describe('biggest items', () => {
  it('lists the biggest tool results and calls of a real session, biggest first, named by tool and path', () => {
    const items = biggestItems(kiliman.messages, (m) => counter.countMessage(m), true);
    expect(items).toHaveLength(BIGGEST_ITEMS);
    expect(items.map((i) => i.tokens)).toEqual([...items.map((i) => i.tokens)].sort((a, b) => b - a));
    // Every tool result of the session counted, none bigger left out.
    const results = kiliman.messages.filter((m) => m.toolResult).map((m) => counter.countMessage(m));
    const biggestResult = Math.max(...results);
    expect(items[0]!.tokens).toBeGreaterThanOrEqual(biggestResult);
    const top = items.find((i) => i.kind !== 'toolCall')!;
    expect(top.offloadable).toBe(true);
    expect(top.label).toMatch(/^\w+ \S/);
    expect(items.filter((i) => i.kind === 'toolCall').every((i) => !i.offloadable)).toBe(true);
    // A conversation whose compaction is written elsewhere offloads nothing.
    expect(biggestItems(kiliman.messages, (m) => counter.countMessage(m), false).some((i) => i.offloadable)).toBe(false);
  });

  it('names a call by its path, else its command, and clips a long one', () => {
    expect(callLabel({ name: 'Read', arguments: JSON.stringify({ file_path: '/repo/src/loader.ts' }) })).toBe('Read /repo/src/loader.ts');
    expect(callLabel({ name: 'Bash', arguments: JSON.stringify({ command: 'npm   test\n-- --run' }) })).toBe('Bash npm test -- --run');
    expect(callLabel({ name: 'Weird', arguments: 'not json' })).toBe('Weird');
    expect(callLabel({ name: 'Bash', arguments: JSON.stringify({ command: 'x'.repeat(500) }) })).toMatch(/^Bash x{115}… \(505 characters\)$/);
  });
});

describe('context history', () => {
  it('a Claude Code session: every request it recorded, the window and the trigger at the setting', async () => {
    const provider = contextHistoryProvider(sourceOf(entryOf(kiliman)), settings);
    const h = (await provider('k'))!;
    const recorded = await readUsageHistory(KILIMAN, 'claude-code');
    expect(h.source).toBe('reported');
    expect(h.recordedBy).toBe('Claude Code');
    expect(h.points).toHaveLength(131);
    expect(h.points.at(-1)!.tokens).toBe(69_800);
    expect(h.points.map((p) => p.tokens)).toEqual(recorded.requests.map((r) => r.tokens));
    expect(h.trigger).toBe(Math.round(h.window * 0.8));
    const lower = await contextHistoryProvider(sourceOf(entryOf(kiliman)), { current: { triggerRatio: 0.5 } } as typeof settings)('k');
    expect(lower!.trigger).toBe(Math.round(h.window * 0.5));
  });

  it('reads the file again when it changed, and marks a compaction the agent recorded', async () => {
    const file = join(root, 'session.jsonl');
    copyFileSync(KILIMAN, file);
    const conv = { ...kiliman, meta: { ...kiliman.meta, sourcePath: file } };
    const provider = contextHistoryProvider(sourceOf(entryOf(conv)), settings);
    const first = (await provider('k'))!;
    expect(first.compactions).toEqual([]);
    appendFileSync(
      file,
      JSON.stringify({
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'cb1',
        timestamp: '2026-11-26T10:00:00Z',
        compactMetadata: { trigger: 'auto', preTokens: 70_100 },
      }) + '\n',
    );
    const second = (await provider('k'))!;
    expect(second).not.toBe(first);
    expect(second.compactions).toEqual([{ afterPoint: 131, kind: 'auto', preTokens: 70_100, at: '2026-11-26T10:00:00Z' }]);
  });

  it('a conversation without usage records: our count at each assistant message, growing', async () => {
    const conv = conversation('c', 5);
    const h = (await contextHistoryProvider(sourceOf(entryOf(conv)), settings)('k'))!;
    expect(h.source).toBe('counted');
    expect(h.points).toHaveLength(5);
    for (let i = 1; i < h.points.length; i++) expect(h.points[i]!.tokens).toBeGreaterThan(h.points[i - 1]!.tokens);
    // The last request is what the meter shows.
    expect(h.points.at(-1)!.tokens).toBe(tokenReport(conv.messages, counter).total);
  });
});

// ───────────────────────────── through the panel ─────────────────────────────

let context: FakeExtensionContext;
let service: FakeService;
beforeEach(() => {
  resetFake();
  context = createExtensionContext(createProfile('/tmp/ctxc-inspector-views'));
  service = new FakeService(counter);
  service.add('kiliman', kiliman);
});
afterEach(() => disposeContext(context));

type Init = Extract<HostToWebview, { type: 'init' }>;
type Response = Extract<HostToWebview, { type: 'response' }>;

async function open(options: Parameters<typeof registerInspector>[2] = {}, reveal?: 'chart'): Promise<{ panel: FakeWebviewPanel; init: Init }> {
  await registerInspector(context as unknown as vscode.ExtensionContext, service, { counters: async () => counter, ...options }).show('kiliman', reveal);
  const panel = fake.state.webviewPanels.find((p) => !p.disposed)!;
  panel.webview.receive({ type: 'ready' });
  const init = await vi.waitFor(() => {
    const m = (panel.webview.posted as HostToWebview[]).find((x): x is Init => x.type === 'init');
    if (!m) throw new Error('no init yet');
    return m;
  });
  return { panel, init };
}

async function response(panel: FakeWebviewPanel, id: number): Promise<Response> {
  return vi.waitFor(() => {
    const m = (panel.webview.posted as HostToWebview[]).find((x): x is Response => x.type === 'response' && x.id === id);
    if (!m) throw new Error('no response yet');
    return m;
  });
}

describe('inspector model', () => {
  it('carries the cost of compacting at the session model prices, the biggest items and the chart', async () => {
    const history = contextHistoryProvider(sourceOf(service.get('kiliman')!), settings);
    const { init } = await open({ history }, 'chart');
    const model = init.model!;
    expect(init.reveal).toBe('chart');
    expect(model.history?.points).toHaveLength(131);
    expect(model.biggest.length).toBe(BIGGEST_ITEMS);
    expect(model.biggest.some((b) => b.offloadable)).toBe(true);
    const price = modelPrice(kiliman.meta.model)!;
    expect(price).toBeDefined();
    const cost = compactionCost(
      {
        before: { inFile: model.header.tokensBefore - (model.header.notInFile?.before ?? 0), total: model.header.tokensBefore },
        after: { inFile: model.header.tokensAfter - (model.header.notInFile?.after ?? 0), total: model.header.tokensAfter },
      } as Parameters<typeof compactionCost>[0],
      price,
    );
    expect(model.cost).toMatchObject({
      model: kiliman.meta.model,
      rewritten: cost.rewritten,
      wouldRead: cost.wouldRead,
      savedPerRequest: cost.savedPerRequest,
    });
    expect(model.cost.price?.readOn).toBe(price.readOn);
    expect(model.cost.paysOffAfter).toBe(cost.paysOffAfter);
    expect(model.scope).toEqual({ offload: [] });
  });

  it('opens in the active editor group (the whole width of the editor area, not half of it beside the transcript)', async () => {
    const { panel } = await open();
    expect(panel.viewColumn).toBe(ViewColumn.Active);
  });

  it('a chart that cannot be read is left out; the rest shows', async () => {
    const { init } = await open({ history: async () => Promise.reject(new Error('EACCES: permission denied')) });
    expect(init.model!.history).toBeUndefined();
    expect(init.model!.biggest.length).toBeGreaterThan(0);
  });

  it('compact up to a message and offload a tool result reach the service as the engine edits', async () => {
    const { panel, init } = await open();
    const ids = kiliman.messages.map((m) => m.id);
    const upTo = ids[Math.floor(ids.length / 2)]!;
    panel.webview.receive({ type: 'preview', id: 1, edits: { sections: {}, restore: [], pin: [], unpin: [], offload: [], upTo } });
    const r1 = await response(panel, 1);
    expect(service.calls.at(-1)).toEqual({ method: 'preview', key: 'kiliman', edits: { upTo } });
    expect(r1.ok && r1.request === 'preview' && r1.value.model.scope).toEqual({ upTo, offload: [] });
    const big = init.model!.biggest.find((b) => b.offloadable)!;
    panel.webview.receive({ type: 'apply', id: 2, edits: { sections: {}, restore: [], pin: [], unpin: [], offload: [big.id] } });
    const r2 = await response(panel, 2);
    expect(service.calls.at(-1)).toEqual({ method: 'apply', key: 'kiliman', edits: { offload: [big.id], offloadOnly: true } });
    expect(r2.ok && r2.request === 'apply' && (r2.value.model as InspectorModel).scope).toEqual({ offload: [big.id] });
  });

  it('refuses edits naming a message the conversation does not hold, or an upTo that is not an id', async () => {
    const { panel } = await open();
    const calls = service.calls.length;
    panel.webview.receive({ type: 'preview', id: 3, edits: { sections: {}, restore: [], pin: [], unpin: [], offload: [], upTo: 'no-such-message' } });
    const r3 = await response(panel, 3);
    expect(r3.ok).toBe(false);
    expect(!r3.ok && r3.error).toContain('no-such-message');
    panel.webview.receive({ type: 'preview', id: 4, edits: { sections: {}, restore: [], pin: [], unpin: [], offload: [], upTo: 42 } });
    const r4 = await response(panel, 4);
    expect(!r4.ok && r4.error).toContain('upTo');
    expect(service.calls).toHaveLength(calls);
  });

  it('where compactions are written as a new session, nothing is offloadable and the note says why', async () => {
    const note = 'A compaction of an agent session is written as a new session';
    const { init } = await open({ offloadNote: () => note });
    expect(init.model!.offloadNote).toBe(note);
    expect(init.model!.biggest.every((b) => !b.offloadable)).toBe(true);
  });
});
