// The fake's plain API values: the classes and enums of @types/vscode it needs, with no state,
// and FakeOf, the type every fake namespace is checked with (checks.ts holds the checks).

import { resolve, sep } from 'node:path';

// ───────────────────────────── checked against @types/vscode ─────────────────────────────
// The fake may leave things out and may hand out smaller objects than the real API (to
// callbacks and as results), but what it has must exist in the real API under the same name and
// accept every argument the real one accepts (the last overload, for overloaded functions), and
// plain values must have the real type. Each namespace below `satisfies FakeOf<typeof vscode.X>`;
// classes and enums are checked at the end of the file.

/** The real arguments a fake must accept; callbacks are not compared, since the fake calls them
 *  with its own smaller objects. */
type RealArguments<A extends unknown[]> = { [I in keyof A]: A[I] extends ((...args: never[]) => unknown) | undefined ? never : A[I] };

/** What a fake of `Real` may be: a subset of its members, each function taking the real arguments. */
export type FakeOf<Real> = {
  [K in keyof Real]?: Real[K] extends (...args: infer A) => unknown
    ? (...args: RealArguments<A>) => unknown
    : Real[K] extends string | number | boolean | undefined
      ? Real[K]
      : unknown;
};

// ───────────────────────────── basics ─────────────────────────────

export class Disposable {
  private fn: (() => unknown) | undefined;
  constructor(fn: () => unknown) {
    this.fn = fn;
  }
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  dispose(): void {
    const fn = this.fn;
    this.fn = undefined;
    fn?.();
  }
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: { dispose(): unknown }[]) => { dispose(): unknown };

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  private disposed = false;
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs ? listener.bind(thisArgs) : listener;
    if (!this.disposed) this.listeners.add(bound);
    const d = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  get listenerCount(): number {
    return this.listeners.size;
  }
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

export class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

export interface CancellationToken {
  isCancellationRequested: boolean;
  onCancellationRequested: Event<void>;
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token: CancellationToken;
  constructor() {
    const emitter = this.emitter;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: ((listener: (e: void) => unknown, thisArgs?: unknown, ds?: { dispose(): unknown }[]) => {
        if (token.isCancellationRequested) {
          listener.call(thisArgs);
          return new Disposable(() => undefined);
        }
        return emitter.event(listener, thisArgs, ds);
      }) as Event<void>,
    };
    this.token = token;
  }
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static file(fsPath: string): Uri {
    return new Uri('file', '', resolve(fsPath).split(sep).join('/'), '', '');
  }
  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`fake Uri.parse: cannot parse ${value}`);
    return new Uri(m[1]!, m[2] ?? '', decodeURIComponent(m[3] ?? ''), m[4] ?? '', m[5] ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    const joined = [base.path, ...segments].join('/').replace(/\/+/g, '/');
    return base.with({ path: joined });
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString(): string {
    const auth = this.scheme === 'file' || this.authority ? `//${this.authority}` : '';
    const q = this.query ? `?${this.query}` : '';
    const f = this.fragment ? `#${this.fragment}` : '';
    return `${this.scheme}:${auth}${encodeURI(this.path)}${q}${f}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, path: this.path };
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  value: string;
  isTrusted?: boolean | { readonly enabledCommands: readonly string[] };
  supportThemeIcons?: boolean;
  supportHtml?: boolean;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
    return this;
  }
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendCodeblock(value: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${value}\n\`\`\`\n`;
    return this;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export class RelativePattern {
  baseUri: Uri;
  pattern: string;
  constructor(base: { uri: Uri } | Uri | string, pattern: string) {
    this.baseUri = typeof base === 'string' ? Uri.file(base) : base instanceof Uri ? base : base.uri;
    this.pattern = pattern;
  }
  get base(): string {
    return this.baseUri.fsPath;
  }
  set base(value: string) {
    this.baseUri = Uri.file(value);
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  label?: string;
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon | Uri;
  contextValue?: string;
  resourceUri?: Uri;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string; role?: string };
  collapsibleState?: TreeItemCollapsibleState;
  constructor(labelOrUri: string | Uri, collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None) {
    if (typeof labelOrUri === 'string') this.label = labelOrUri;
    else this.resourceUri = labelOrUri;
    this.collapsibleState = collapsibleState;
  }
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
  Three = 3,
  Four = 4,
  Five = 5,
  Six = 6,
  Seven = 7,
  Eight = 8,
  Nine = 9,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum ExtensionMode {
  Production = 1,
  Development = 2,
  Test = 3,
}

export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}

export enum UIKind {
  Desktop = 1,
  Web = 2,
}

export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}
