// The inspector's panel host against the vscode fake and a fake ConversationService: the page's
// CSP and nonce, the resource roots, the singleton panel, restore after a reload, and the
// message handler's routing (what reaches the service, and what never does).

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import { createTokenCounter, type CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { INSPECTOR_VIEW_TYPE } from '../../src/extension/ids';
import { INSPECTOR_TITLE, createNonce, inspectorCsp, renderInspectorHtml } from '../../src/extension/inspector/inspectorHtml';
import { InspectorPanel } from '../../src/extension/inspector/inspectorPanel';
import { registerInspector } from '../../src/extension/inspector/registerInspector';
import type { HostToWebview, InspectorModel } from '../../src/shared/protocol';
import { conversation, FakeService } from '../helpers/inspectorService';
import { createExtensionContext, createProfile, disposeContext, fake, resetFake, type FakeExtensionContext, type FakeWebviewPanel } from '../fakes/vscode';

// ───────────────────────────── setup ─────────────────────────────

let counter: CachedTokenCounter;
let context: FakeExtensionContext;
let service: FakeService;

beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

beforeEach(() => {
  resetFake();
  context = createExtensionContext(createProfile('/tmp/ctxc-inspector-test'));
  service = new FakeService(counter);
  service.add('a', conversation('a'));
  service.add('b', conversation('b', 2));
});

afterEach(() => {
  disposeContext(context);
});

function launcher() {
  return registerInspector(context as unknown as vscode.ExtensionContext, service, { counters: async () => counter });
}

function panels(): FakeWebviewPanel[] {
  return fake.state.webviewPanels.filter((p) => !p.disposed);
}

function posted(panel: FakeWebviewPanel): HostToWebview[] {
  return panel.webview.posted as HostToWebview[];
}

async function waitForPost<T extends HostToWebview>(panel: FakeWebviewPanel, match: (m: HostToWebview) => m is T): Promise<T> {
  return vi.waitFor(() => {
    const found = posted(panel).find(match);
    if (!found) throw new Error(`not posted yet; posted: ${JSON.stringify(posted(panel).map((m) => m.type))}`);
    return found;
  });
}

const isInit = (m: HostToWebview): m is Extract<HostToWebview, { type: 'init' }> => m.type === 'init';
function isResponse(id: number) {
  return (m: HostToWebview): m is Extract<HostToWebview, { type: 'response' }> => m.type === 'response' && m.id === id;
}

async function openReady(key = 'a'): Promise<{ panel: FakeWebviewPanel; model: InspectorModel }> {
  await launcher().show(key);
  const panel = panels()[0]!;
  panel.webview.receive({ type: 'ready' });
  const init = await waitForPost(panel, isInit);
  return { panel, model: init.model! };
}

// ───────────────────────────── the page ─────────────────────────────

describe('inspector page', () => {
  it('has a CSP with no default source, nonce-only scripts and styles, images and fonts from the webview only', () => {
    const csp = inspectorCsp('vscode-webview://abc', 'N0nce==');
    expect(csp.split('; ')).toEqual([
      `default-src 'none'`,
      `script-src 'nonce-N0nce=='`,
      `style-src vscode-webview://abc`,
      `img-src vscode-webview://abc data:`,
      `font-src vscode-webview://abc`,
    ]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it('loads only its bundle and stylesheet, with the nonce on the one script and no inline code', () => {
    const html = renderInspectorHtml({
      cspSource: 'vscode-webview://abc',
      nonce: 'n1',
      scriptUri: 'vscode-resource:/dist/webview.js?a=1&b="2"',
      styleUri: 'vscode-resource:/dist/webview.css',
      title: INSPECTOR_TITLE,
    });
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-n1';`);
    const scripts = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![0]).toContain('nonce="n1"');
    expect(scripts[0]![1]).toBe('');
    expect(html).toContain('src="vscode-resource:/dist/webview.js?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('<link rel="stylesheet" href="vscode-resource:/dist/webview.css">');
    expect(html).not.toMatch(/\son[a-z]+=|style=/i);
  });

  it('makes a fresh 128-bit nonce every time, and every page load gets its own', async () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => createNonce()));
    expect(nonces.size).toBe(1000);
    for (const n of nonces) expect(Buffer.from(n, 'base64')).toHaveLength(16);
    await launcher().show('a');
    const first = /nonce-([^']+)'/.exec(panels()[0]!.webview.html)![1];
    InspectorPanel.currentPanel!.dispose();
    await launcher().show('a');
    const second = /nonce-([^']+)'/.exec(panels()[0]!.webview.html)![1];
    expect(first).not.toBe(second);
    expect(panels()[0]!.webview.html).toContain(`nonce="${second}"`);
  });

  it('limits local resources to dist/ and media/, enables scripts but no command URIs', async () => {
    await launcher().show('a');
    const p = panels()[0]!;
    const opts = p.webview.options as {
      enableScripts: boolean;
      enableCommandUris: boolean;
      localResourceRoots: vscode.Uri[];
      retainContextWhenHidden: boolean;
    };
    const root = context.extensionUri.path;
    expect(opts.localResourceRoots.map((u) => u.path)).toEqual([`${root}/dist`, `${root}/media`]);
    expect(opts.enableScripts).toBe(true);
    expect(opts.enableCommandUris).toBe(false);
    expect(p.webview.html).toContain('vscode-webview-resource');
    expect(p.viewType).toBe(INSPECTOR_VIEW_TYPE);
    expect(p.title).toBe('Context Compactor: Inspector');
  });
});

// ───────────────────────────── panel lifecycle ─────────────────────────────

describe('inspector panel', () => {
  it('is a singleton: showing again reveals the open panel, another conversation switches it', async () => {
    const l = launcher();
    await l.show('a');
    await l.show('a');
    expect(panels()).toHaveLength(1);
    expect(panels()[0]!.reveals).toBe(1);
    await l.show('b');
    expect(panels()).toHaveLength(1);
    expect(InspectorPanel.currentPanel!.handler.conversationKey).toBe('b');
  });

  it('opens a new panel after the old one was closed', async () => {
    const l = launcher();
    await l.show('a');
    panels()[0]!.dispose();
    expect(InspectorPanel.currentPanel).toBeUndefined();
    await l.show('a');
    expect(fake.state.webviewPanels).toHaveLength(2);
    expect(panels()).toHaveLength(1);
  });

  it('restores after a reload through its serializer, showing the conversation the webview saved', async () => {
    launcher();
    const serializer = fake.state.webviewSerializers.get(INSPECTOR_VIEW_TYPE) as vscode.WebviewPanelSerializer;
    expect(serializer).toBeDefined();
    const restored = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 'old title', vscode.ViewColumn.One, {}) as unknown as FakeWebviewPanel;
    await serializer.deserializeWebviewPanel(restored as unknown as vscode.WebviewPanel, { version: 1, key: 'b', roles: [] });
    expect(InspectorPanel.currentPanel!.panel).toBe(restored);
    expect(restored.title).toBe('Context Compactor: Inspector');
    expect(restored.webview.html).toContain(`default-src 'none'`);
    expect((restored.webview.options as { localResourceRoots: vscode.Uri[] }).localResourceRoots).toHaveLength(2);
    restored.webview.receive({ type: 'ready' });
    const init = await waitForPost(restored, isInit);
    expect(init.model!.key).toBe('b');
    expect(service.calls).toEqual([{ method: 'preview', key: 'b', edits: {} }]);
  });

  it('a restored panel whose conversation is not open yet waits for it, then shows it', async () => {
    launcher();
    service.activeKey = undefined;
    const serializer = fake.state.webviewSerializers.get(INSPECTOR_VIEW_TYPE) as vscode.WebviewPanelSerializer;
    const restored = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 't', vscode.ViewColumn.One, {}) as unknown as FakeWebviewPanel;
    await serializer.deserializeWebviewPanel(restored as unknown as vscode.WebviewPanel, { key: 'later' });
    restored.webview.receive({ type: 'ready' });
    const waiting = await waitForPost(restored, isInit);
    expect(waiting.model).toBeUndefined();
    expect(waiting.message).toMatch(/not open/);
    service.changed.fire(service.add('later', conversation('later')));
    await vi.waitFor(() => expect(posted(restored).filter(isInit).at(-1)!.model?.key).toBe('later'));
  });

  it('is disposed with the extension', async () => {
    await launcher().show('a');
    disposeContext(context);
    expect(panels()).toHaveLength(0);
    expect(fake.state.webviewSerializers.has(INSPECTOR_VIEW_TYPE)).toBe(false);
  });
});

// ───────────────────────────── message routing ─────────────────────────────

describe('inspector message handler', () => {
  it('answers ready with a preview of the conversation and every original message once', async () => {
    const { model } = await openReady('a');
    expect(service.calls).toEqual([{ method: 'preview', key: 'a', edits: {} }]);
    expect(model.phase).toBe('preview');
    expect(model.messages.map((m) => m.id)).toEqual(service.get('a')!.conversation.messages.map((m) => m.id));
    expect(model.sections).toHaveLength(8);
    expect(model.header.model).toBe('gpt-4o');
    expect(model.header.countMethod).toBe('exact');
  });

  it('apply calls service.apply with exactly the edited sections and restores, and answers with the applied result', async () => {
    const { panel } = await openReady('a');
    const id0 = service.get('a')!.conversation.messages[1]!.id;
    panel.webview.receive({ type: 'apply', id: 7, edits: { sections: { 'Pending Tasks': '- ship it' }, restore: [id0], pin: [], unpin: [] } });
    const r = await waitForPost(panel, isResponse(7));
    expect(service.calls.at(-1)).toEqual({ method: 'apply', key: 'a', edits: { sections: { 'Pending Tasks': '- ship it' }, restore: [id0] } });
    expect(r.ok && r.request === 'apply' && r.value.model.phase).toBe('applied');
    // Our own apply does not mark the preview stale.
    expect(posted(panel).some((m) => m.type === 'stale')).toBe(false);
  });

  it('cancel calls nothing on the service and closes the panel', async () => {
    const { panel } = await openReady('a');
    const calls = service.calls.length;
    panel.webview.receive({ type: 'cancel' });
    await new Promise((r) => setTimeout(r, 20));
    expect(service.calls).toHaveLength(calls);
    expect(panel.disposed).toBe(true);
    expect(InspectorPanel.currentPanel).toBeUndefined();
  });

  it('preview passes restore and pin edits; countSections counts with the real tokenizer', async () => {
    const { panel } = await openReady('a');
    const ids = service.get('a')!.conversation.messages.map((m) => m.id);
    panel.webview.receive({ type: 'preview', id: 3, edits: { sections: {}, restore: [ids[1]], pin: [ids[2]], unpin: [] } });
    const r = await waitForPost(panel, isResponse(3));
    expect(r.ok).toBe(true);
    expect(service.calls.at(-1)).toEqual({ method: 'preview', key: 'a', edits: { restore: [ids[1]], pin: [ids[2]] } });
    const text = 'Ship the inspector — 检查器 and its tests';
    panel.webview.receive({ type: 'countSections', id: 4, sections: { 'Current Work': text, 'Pending Tasks': '' } });
    const c = await waitForPost(panel, isResponse(4));
    expect(c.ok && c.request === 'countSections' && c.value.tokens).toEqual({ 'Current Work': counter.count(text), 'Pending Tasks': 0 });
  });

  it('undo calls service.undo; with nothing to undo it says so and shows no new preview', async () => {
    const { panel } = await openReady('a');
    service.undoResult = false;
    panel.webview.receive({ type: 'undo', id: 5 });
    const r = await waitForPost(panel, isResponse(5));
    expect(r.ok && r.request === 'undo' && r.value).toEqual({ undone: false });
    expect(service.calls.at(-1)).toEqual({ method: 'undo', key: 'a' });
    service.undoResult = true;
    panel.webview.receive({ type: 'undo', id: 6 });
    const r2 = await waitForPost(panel, isResponse(6));
    expect(r2.ok && r2.request === 'undo' && r2.value.undone && r2.value.model?.phase).toBe('preview');
  });

  it('rejects malformed messages before the service sees them', async () => {
    const { panel } = await openReady('a');
    const calls = service.calls.length;
    panel.webview.receive('apply');
    panel.webview.receive({ type: 'format-disk' });
    panel.webview.receive({ type: 'apply', id: -1, edits: {} });
    panel.webview.receive({ type: 'apply', id: 8, edits: { sections: { 'Not a section': 'x' } } });
    panel.webview.receive({ type: 'apply', id: 9, edits: { sections: {}, restore: [42] } });
    panel.webview.receive({ type: 'apply', id: 10, edits: { sections: {}, restore: ['no-such-message'] } });
    panel.webview.receive({ type: 'preview', id: 11, edits: { sections: { 'Current Work': 'x'.repeat(300_000) } } });
    for (const id of [8, 9, 10, 11]) {
      const r = await waitForPost(panel, isResponse(id));
      expect(r.ok).toBe(false);
    }
    const errors = posted(panel)
      .filter((m): m is Extract<HostToWebview, { type: 'response'; ok: false }> => m.type === 'response' && !m.ok)
      .map((m) => m.error);
    expect(errors[0]).toMatch(/"Not a section" is not one of the 8 section names/);
    expect(errors[1]).toMatch(/restore\[0\]: expected a message id string/);
    expect(errors[2]).toMatch(/not in it \(no-such-message\)/);
    expect(errors[3]).toMatch(/300000 characters, at most 200000/);
    expect(service.calls).toHaveLength(calls);
  });

  it('an error reply never copies input back at length: three 5 MB ids make a short message', async () => {
    const { panel } = await openReady('a');
    const big = (c: string) => c.repeat(5 * 1024 * 1024);
    panel.webview.receive({ type: 'apply', id: 12, edits: { sections: {}, restore: [big('a'), big('b')], pin: [big('c')] } });
    const r = await waitForPost(panel, isResponse(12));
    expect(r.ok).toBe(false);
    const error = !r.ok ? r.error : '';
    expect(error.length).toBeLessThan(500);
    expect(error).toMatch(/3 message id\(s\) in the edits are not in it \(a{80}… \(5,242,880 characters\), b{80}… \(5,242,880 characters\)/);
    expect(JSON.stringify(posted(panel)).length).toBeLessThan(100_000);
  });

  it('a newer preview supersedes one still running (answered as cancelled, never shown)', async () => {
    const { panel } = await openReady('a');
    let release!: () => void;
    service.hold = new Promise((r) => (release = r));
    panel.webview.receive({ type: 'preview', id: 20, edits: { sections: {}, restore: [], pin: [], unpin: [] } });
    panel.webview.receive({ type: 'preview', id: 21, edits: { sections: {}, restore: [], pin: [], unpin: [] } });
    const first = await waitForPost(panel, isResponse(20));
    expect(first.ok === false && first.cancelled).toBe(true);
    service.hold = undefined;
    release();
    const second = await waitForPost(panel, isResponse(21));
    expect(second.ok).toBe(true);
    expect(posted(panel).filter(isResponse(20))).toHaveLength(1);
  });

  it('says the preview is stale when the conversation changes outside the inspector, and re-previews on the next ready', async () => {
    const { panel } = await openReady('a');
    const entry = service.get('a')!;
    entry.conversation = conversation('a', 5);
    service.changed.fire(entry);
    await waitForPost(panel, (m): m is Extract<HostToWebview, { type: 'stale' }> => m.type === 'stale');
    const previews = service.calls.filter((c) => c.method === 'preview').length;
    panel.webview.receive({ type: 'ready' });
    await vi.waitFor(() => expect(service.calls.filter((c) => c.method === 'preview')).toHaveLength(previews + 1));
  });

  it('a webview reload (hidden tab shown again) gets the cached preview without recomputing', async () => {
    const { panel } = await openReady('a');
    panel.webview.receive({ type: 'ready' });
    await vi.waitFor(() => expect(posted(panel).filter(isInit)).toHaveLength(2));
    expect(service.calls.filter((c) => c.method === 'preview')).toHaveLength(1);
  });

  it('a failed preview is reported to the webview, not thrown', async () => {
    service.preview = async () => {
      throw new Error('Compaction is not available in this build yet.');
    };
    await launcher().show('a');
    const panel = panels()[0]!;
    panel.webview.receive({ type: 'ready' });
    const init = await waitForPost(panel, isInit);
    expect(init.model).toBeUndefined();
    expect(init.message).toBe('The preview failed: Compaction is not available in this build yet.');
    expect(posted(panel).some((m) => m.type === 'error')).toBe(true);
  });
});
