// The loop guard's reason, shown in VS Code. Claude Code 2.1.328 prints a PreCompact hook's reason
// only for a manual /compact: when the guard blocks an automatic compaction, the person sees just
// "Context limit reached · /compact or /clear to continue". The hook records each block (with its
// reason) in its state folder; this watches that folder and shows the reason once, as a warning.
//
// The folder is watched when it exists at activation, or from the moment the hooks are installed.

import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { defaultStateDir, type SessionState } from '../../sessions/claudeHook/hookState';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';

/** A block older than this when it is seen is not news any more. */
export const NOTICE_MAX_AGE_MS = 10 * 60_000;

export class LoopGuardNotice extends Disposable {
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly shown = new Set<string>();

  constructor(
    private readonly log: Logger,
    readonly folder: string = join(defaultStateDir(process.env, homedir()), 'claude-code'),
  ) {
    super();
    if (existsSync(folder)) this.watch();
  }

  /** Starts watching (the install command calls it once the hooks are in place). */
  watch(): void {
    if (this.watcher || this.isDisposed) return;
    // A watcher on a folder that does not exist yet may never fire: the folder is ours, make it.
    mkdirSync(this.folder, { recursive: true });
    this.watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.folder), '*.json')));
    const check = (uri: vscode.Uri) => void this.check(uri.fsPath);
    this._register(this.watcher.onDidCreate(check));
    this._register(this.watcher.onDidChange(check));
  }

  private async check(file: string): Promise<void> {
    if (file.endsWith('.repair.json')) return;
    let state: SessionState;
    try {
      state = JSON.parse(await readFile(file, 'utf8')) as SessionState;
    } catch {
      return;
    }
    const last = Array.isArray(state.compactions) ? state.compactions[state.compactions.length - 1] : undefined;
    if (!last?.blocked || typeof last.reason !== 'string') return;
    const key = `${file}\u0000${last.at}`;
    if (this.shown.has(key) || Date.now() - Date.parse(last.at) > NOTICE_MAX_AGE_MS) return;
    this.shown.add(key);
    const session = (state.session || basename(file, '.json')).slice(0, 8);
    this.log.info(`Claude Code session ${state.session}: the loop guard blocked an automatic compaction`);
    void vscode.window.showWarningMessage(vscode.l10n.t('Claude Code session {0}: {1}', session, last.reason));
  }
}
