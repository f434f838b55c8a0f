// File system watchers and the globs they match, as VS Code's: a watcher hears the events
// fake.fileEvent reports for the paths its pattern covers.

import { EventEmitter, type RelativePattern, type Uri } from './api';
import { relative, resolve, sep } from 'node:path';

/** Glob → RegExp for the patterns extensions use: **, *, ?, {a,b}. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let inBrace = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      inBrace = true;
      re += '(?:';
    } else if (c === '}' && inBrace) {
      inBrace = false;
      re += ')';
    } else if (c === ',' && inBrace) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export class FakeFileSystemWatcher {
  private readonly emitters = { create: new EventEmitter<Uri>(), change: new EventEmitter<Uri>(), delete: new EventEmitter<Uri>() };
  readonly onDidCreate = this.emitters.create.event;
  readonly onDidChange = this.emitters.change.event;
  readonly onDidDelete = this.emitters.delete.event;
  readonly ignoreCreateEvents: boolean;
  readonly ignoreChangeEvents: boolean;
  readonly ignoreDeleteEvents: boolean;
  disposed = false;
  constructor(
    readonly glob: string | RelativePattern,
    ignore: { create: boolean; change: boolean; delete: boolean },
    /** The workspace folder a string glob is relative to, as it is when an event comes. */
    private readonly workspaceRoot: () => string | undefined,
  ) {
    this.ignoreCreateEvents = ignore.create;
    this.ignoreChangeEvents = ignore.change;
    this.ignoreDeleteEvents = ignore.delete;
  }
  /** Whether an event for `path` reaches this watcher. */
  covers(path: string): boolean {
    const base = typeof this.glob === 'string' ? this.workspaceRoot() : this.glob.baseUri.fsPath;
    if (!base) return false;
    const rel = relative(resolve(base), resolve(path)).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) return false;
    return globToRegExp(typeof this.glob === 'string' ? this.glob : this.glob.pattern).test(rel);
  }
  fire(kind: 'create' | 'change' | 'delete', uri: Uri): void {
    if ((kind === 'create' && this.ignoreCreateEvents) || (kind === 'change' && this.ignoreChangeEvents) || (kind === 'delete' && this.ignoreDeleteEvents))
      return;
    this.emitters[kind].fire(uri);
  }
  dispose(): void {
    this.disposed = true;
  }
}
