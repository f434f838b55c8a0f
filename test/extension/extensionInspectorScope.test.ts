// The inspector's partial compactions in the host with the real engine and store, on a real
// transcript: Offload on one of the biggest items takes only that tool result out (the meter
// drops by about its size) and Undo brings it back; "Compact up to here" keeps every later
// message as it is. The chart of a transcript that records no usage is our count as it grew.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageText, type Conversation } from '../../src/engine/conversation/model';
import type { HostToWebview, InspectorEdits, InspectorModel } from '../../src/shared/protocol';
import { hostWithSharedTranscript, HOST_SETTLES, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake, type FakeWebviewPanel } from '../fakes/vscode';

const TRANSCRIPT = 'mini-swe-agent/django__django-11138.traj.json';
const NONE: InspectorEdits = { sections: {}, restore: [], pin: [], unpin: [], offload: [] };

let host: ActivatedHost;
let panel: FakeWebviewPanel;
let init: InspectorModel;

type Response = Extract<HostToWebview, { type: 'response' }>;
async function request(message: { type: 'preview' | 'apply' | 'undo'; id: number; edits?: InspectorEdits }): Promise<Response> {
  panel.webview.receive(message);
  return vi.waitFor(() => {
    const r = (panel.webview.posted as HostToWebview[]).find((x): x is Response => x.type === 'response' && x.id === message.id);
    if (!r) throw new Error('no response yet');
    return r;
  }, HOST_SETTLES);
}

function modelOf(r: Response): InspectorModel {
  if (!r.ok || r.request === 'countSections') throw new Error(`request failed: ${JSON.stringify(r)}`);
  return (r.value as { model: InspectorModel }).model;
}

beforeEach(async () => {
  resetFake();
  host = await hostWithSharedTranscript(TRANSCRIPT);
  await fake.command('contextCompactor.inspect')!();
  panel = fake.state.webviewPanels.at(-1)!;
  panel.webview.receive({ type: 'ready' });
  init = await vi.waitFor(() => {
    const m = (panel.webview.posted as HostToWebview[]).find((x) => x.type === 'init');
    if (!m || m.type !== 'init' || !m.model) throw new Error('no init yet');
    return m.model;
  }, HOST_SETTLES);
});
afterEach(() => host.deactivate());

describe('the inspector on a transcript, with the real engine', () => {
  it('charts our count at each assistant message and now, since the file records no usage', () => {
    const h = init.history!;
    expect(h.source).toBe('counted');
    const assistants = host.api.store.active()!.conversation.messages.filter((m) => m.role === 'assistant').length;
    expect(h.points).toHaveLength(assistants + 1);
    expect(h.points.at(-1)!.tokens).toBe(host.api.store.active()!.report.total);
    expect(h.points.at(-1)!.tokens).toBe(init.header.tokensBefore);
  });

  it('Offload takes only that tool result out, the meter drops by about its size, and Undo brings it back', async () => {
    const original: Conversation = host.api.store.active()!.conversation;
    const before = host.api.store.active()!.report.total;
    const big = init.biggest.find((b) => b.offloadable)!;
    expect(big.kind).not.toBe('toolCall');
    const preview = modelOf(await request({ type: 'preview', id: 1, edits: { ...NONE, offload: [big.id] } }));
    expect(preview.messages.filter((m) => m.decision !== 'kept').map((m) => [m.id, m.decision])).toEqual([[big.id, 'offloaded']]);
    expect(preview.scope).toEqual({ offload: [big.id] });
    modelOf(await request({ type: 'apply', id: 2, edits: { ...NONE, offload: [big.id] } }));
    const now = host.api.store.active()!;
    expect(now.conversation.messages).toHaveLength(original.messages.length);
    expect(now.conversation.messages.some((m) => m.itemType === 'COMPACTION_SUMMARY')).toBe(false);
    for (const [i, m] of original.messages.entries()) if (m.id !== big.id) expect(now.conversation.messages[i]).toEqual(m);
    expect(messageText(now.conversation.messages.find((m) => m.id === big.id)!)).not.toBe(messageText(original.messages.find((m) => m.id === big.id)!));
    const dropped = before - now.report.total;
    expect(dropped).toBeGreaterThan(big.tokens * 0.8);
    expect(dropped).toBeLessThanOrEqual(big.tokens);
    const undo = await request({ type: 'undo', id: 3 });
    expect(undo.ok && undo.request === 'undo' && undo.value.undone).toBe(true);
    expect(JSON.stringify(host.api.store.active()!.conversation)).toBe(JSON.stringify(original));
    expect(host.api.store.active()!.report.total).toBe(before);
  });

  it('"Compact up to here" keeps every later message as it is, and applies the same', async () => {
    const msgs = host.api.store.active()!.conversation.messages;
    const at = Math.floor(msgs.length / 2);
    const edits = { ...NONE, upTo: msgs[at]!.id };
    const preview = modelOf(await request({ type: 'preview', id: 4, edits }));
    expect(preview.messages.slice(at + 1).every((m) => m.decision === 'kept')).toBe(true);
    expect(preview.messages.slice(0, at + 1).some((m) => m.decision !== 'kept')).toBe(true);
    expect(preview.scope).toEqual({ upTo: msgs[at]!.id, offload: [] });
    const applied = modelOf(await request({ type: 'apply', id: 5, edits }));
    expect(applied.phase).toBe('applied');
    expect(host.api.store.active()!.conversation.messages.slice(-(msgs.length - at - 1))).toEqual(msgs.slice(at + 1));
  });
});
