// workspace: configuration, documents, files on disk under the workspace folder, watchers.

import { type ConfigurationTarget, type FakeOf, type RelativePattern, Uri } from './api';
import { changeDocEmitter, closeDocEmitter, configEmitter, languageOf, makeDocument, openDocEmitter, setConfig, state, workspaceFoldersEmitter } from './state';
import type { FakeTextDocument } from './types';
import { FakeFileSystemWatcher, globToRegExp } from './watcher';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type * as vscode from 'vscode';

function walk(dir: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, out, limit);
    else out.push(full);
    if (out.length >= limit) return;
  }
}

export class FakeConfiguration {
  constructor(private readonly section: string) {}
  private full(key: string): string {
    return this.section ? `${this.section}.${key}` : key;
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const k = this.full(key);
    return state.config.has(k) ? (state.config.get(k) as T) : defaultValue;
  }
  has(key: string): boolean {
    return state.config.has(this.full(key));
  }
  inspect<T>(key: string): { key: string; globalValue?: T } | undefined {
    const k = this.full(key);
    return { key: k, globalValue: state.config.get(k) as T | undefined };
  }
  async update(key: string, value: unknown, _target?: ConfigurationTarget | boolean | null): Promise<void> {
    setConfig(this.full(key), value);
  }
}

export const workspace = {
  getConfiguration(section = ''): FakeConfiguration {
    return new FakeConfiguration(section);
  },
  onDidChangeConfiguration: configEmitter.event,
  onDidChangeTextDocument: changeDocEmitter.event,
  onDidOpenTextDocument: openDocEmitter.event,
  onDidCloseTextDocument: closeDocEmitter.event,
  get textDocuments(): FakeTextDocument[] {
    return state.documents;
  },
  get workspaceFolders() {
    const root = state.workspaceRoot;
    return root ? [{ uri: Uri.file(root), name: basename(root), index: 0 }] : undefined;
  },
  async openTextDocument(arg?: Uri | { content?: string; language?: string }): Promise<FakeTextDocument> {
    if (arg instanceof Uri) {
      const existing = state.documents.find((d) => d.uri.toString() === arg.toString());
      if (existing) return existing;
      if (!existsSync(arg.fsPath)) throw new Error(`cannot open ${arg.toString()}: file not found`);
      const doc = makeDocument(arg, readFileSync(arg.fsPath, 'utf8'), languageOf(arg.fsPath), false);
      state.documents.push(doc);
      openDocEmitter.fire(doc);
      return doc;
    }
    const n = state.documents.filter((d) => d.isUntitled).length + 1;
    const doc = makeDocument(Uri.from({ scheme: 'untitled', path: `Untitled-${n}` }), arg?.content ?? '', arg?.language ?? 'plaintext', true);
    state.documents.push(doc);
    openDocEmitter.fire(doc);
    return doc;
  },
  async findFiles(include: string | { pattern: string }, exclude?: string | { pattern: string } | null, maxResults?: number): Promise<Uri[]> {
    const root = state.workspaceRoot;
    if (!root) return [];
    const inc = globToRegExp(typeof include === 'string' ? include : include.pattern);
    const exc = exclude ? globToRegExp(typeof exclude === 'string' ? exclude : exclude.pattern) : undefined;
    const files: string[] = [];
    walk(root, files, 100_000);
    const out: Uri[] = [];
    for (const f of files) {
      const rel = relative(root, f).split(sep).join('/');
      if (inc.test(rel) && !(exc && exc.test(rel))) out.push(Uri.file(f));
      if (maxResults !== undefined && out.length >= maxResults) break;
    }
    return out;
  },
  asRelativePath(pathOrUri: string | Uri, includeWorkspaceFolder = false): string {
    const p = typeof pathOrUri === 'string' ? pathOrUri : pathOrUri.fsPath;
    const root = state.workspaceRoot;
    if (!root || !resolve(p).startsWith(resolve(root))) return p;
    const rel = relative(root, p).split(sep).join('/');
    return includeWorkspaceFolder ? `${basename(root)}/${rel}` : rel;
  },
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      return new Uint8Array(readFileSync(uri.fsPath));
    },
    async writeFile(uri: Uri, content: Uint8Array): Promise<void> {
      mkdirSync(dirname(uri.fsPath), { recursive: true });
      writeFileSync(uri.fsPath, content);
    },
    async stat(uri: Uri): Promise<{ type: number; size: number; mtime: number; ctime: number }> {
      const st = statSync(uri.fsPath);
      return { type: st.isDirectory() ? 2 : 1, size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs };
    },
    async createDirectory(uri: Uri): Promise<void> {
      mkdirSync(uri.fsPath, { recursive: true });
    },
    async delete(uri: Uri, opts?: { recursive?: boolean; useTrash?: boolean }): Promise<void> {
      if (opts?.useTrash) {
        // VS Code refuses useTrash on a file system without a trash (a remote server's).
        if (!state.fileSystemTrash) throw new Error(`Unable to delete file '${uri.fsPath}' via trash because provider does not support it.`);
        state.trashed.push(uri.fsPath);
      }
      rmSync(uri.fsPath, { recursive: !!opts?.recursive, force: true });
    },
    async rename(from: Uri, to: Uri): Promise<void> {
      renameSync(from.fsPath, to.fsPath);
    },
  },
  /** A watcher that hears fake.fileEvent for the paths its pattern covers: a RelativePattern
   *  anywhere on disk (recursive when the pattern has a '/' or '**'), a string glob in the
   *  workspace folder only, as in VS Code. */
  createFileSystemWatcher(
    glob: string | RelativePattern,
    ignoreCreateEvents?: boolean,
    ignoreChangeEvents?: boolean,
    ignoreDeleteEvents?: boolean,
  ): FakeFileSystemWatcher {
    const watcher = new FakeFileSystemWatcher(
      glob,
      { create: !!ignoreCreateEvents, change: !!ignoreChangeEvents, delete: !!ignoreDeleteEvents },
      () => state.workspaceRoot,
    );
    state.watchers.push(watcher);
    return watcher;
  },
  onDidChangeWorkspaceFolders: workspaceFoldersEmitter.event,
} satisfies FakeOf<typeof vscode.workspace>;
