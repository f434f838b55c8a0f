// The inspector panel controller: one panel at a time (createOrShow reveals it when it is
// already open), restored after a reload through the serializer. It owns the webview and its
// lifecycle only; what the messages do is the handler's business (inspectorMessageHandler.ts).

import * as vscode from 'vscode';
import { INSPECTOR_VIEW_TYPE } from '../ids';
import type { ConversationService } from '../conversationService';
import type { Logger } from '../log';
import type { HostToWebview } from '../../shared/protocol';
import { INSPECTOR_TITLE, createNonce, renderInspectorHtml } from './inspectorHtml';
import { InspectorMessageHandler } from './inspectorMessageHandler';
import type { CounterProvider } from './sectionCounter';
import type { HistoryProvider } from './contextHistory';

export interface InspectorDeps {
  extensionUri: vscode.Uri;
  service: ConversationService;
  counters: CounterProvider;
  log?: Logger;
  history?: HistoryProvider;
  offloadNote?: (key: string) => string | undefined;
}

/** The only folders the webview may load from: the bundle and the media (icons, screenshots). */
export function inspectorResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function inspectorWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: inspectorResourceRoots(extensionUri),
  };
}

/** Panel options: the find widget helps in long conversations. The webview is not retained when
 *  hidden (a 5,000-message DOM is memory nobody sees); it rebuilds from the host's cached model
 *  and its own saved UI state when shown again. */
export function inspectorPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { ...inspectorWebviewOptions(extensionUri), enableFindWidget: true, retainContextWhenHidden: false };
}

/** The conversation key the webview saved in its state (InspectorUiState.key), if any. */
export function keyFromState(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const key = (state as { key?: unknown }).key;
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}

export class InspectorPanel implements vscode.Disposable {
  private static current: InspectorPanel | undefined;

  static get currentPanel(): InspectorPanel | undefined {
    return InspectorPanel.current;
  }

  /** Reveals the open inspector (switching it to `key`) or opens one, in the active editor group:
   *  the whole width of the editor area (beside an editor it had half, and its timeline rows a
   *  few characters of text). `reveal` brings a part into view (the context chart). */
  static createOrShow(deps: InspectorDeps, key: string | undefined, reveal?: 'chart'): InspectorPanel {
    const open = InspectorPanel.current;
    if (open) {
      open.panel.reveal(open.panel.viewColumn ?? vscode.ViewColumn.Active);
      void open.handler.show(key, reveal);
      return open;
    }
    const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, INSPECTOR_TITLE, vscode.ViewColumn.Active, inspectorPanelOptions(deps.extensionUri));
    return new InspectorPanel(panel, deps, key, reveal);
  }

  /** Takes over a panel VS Code restored after a reload. */
  static revive(panel: vscode.WebviewPanel, deps: InspectorDeps, state: unknown): InspectorPanel {
    // A second restored panel cannot happen through createOrShow, but be a singleton anyway.
    InspectorPanel.current?.dispose();
    panel.webview.options = inspectorWebviewOptions(deps.extensionUri);
    return new InspectorPanel(panel, deps, keyFromState(state));
  }

  readonly handler: InspectorMessageHandler;
  private readonly subscriptions: vscode.Disposable[] = [];
  private disposed = false;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly deps: InspectorDeps,
    key: string | undefined,
    reveal?: 'chart',
  ) {
    InspectorPanel.current = this;
    panel.title = INSPECTOR_TITLE;
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icon.png');
    this.handler = new InspectorMessageHandler(
      deps.service,
      {
        post: (message: HostToWebview) => this.post(message),
        close: () => this.dispose(),
      },
      {
        counters: deps.counters,
        ...(deps.log ? { log: deps.log } : {}),
        ...(deps.history ? { history: deps.history } : {}),
        ...(deps.offloadNote ? { offloadNote: deps.offloadNote } : {}),
      },
      key,
    );
    if (reveal) void this.handler.show(key, reveal);
    this.subscriptions.push(
      this.handler,
      panel.webview.onDidReceiveMessage((m: unknown) => this.handler.handle(m)),
      panel.onDidDispose(() => this.dispose()),
    );
    panel.webview.html = this.html();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (InspectorPanel.current === this) InspectorPanel.current = undefined;
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.panel.dispose();
  }

  private html(): string {
    const webview = this.panel.webview;
    const dist = vscode.Uri.joinPath(this.deps.extensionUri, 'dist');
    return renderInspectorHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      title: INSPECTOR_TITLE,
    });
  }

  private post(message: HostToWebview): void {
    if (this.disposed) return;
    // A panel closing mid-request rejects the post; nobody is left to tell.
    Promise.resolve(this.panel.webview.postMessage(message)).catch(() => undefined);
  }
}
