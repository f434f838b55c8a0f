// Disposables: a class that creates listeners, emitters or timers owns them by registering them,
// and disposing the class disposes them all, newest first, once. Modelled on
// vscode-pull-request-github's src/common/lifecycle.ts.

import type * as vscode from 'vscode';

export function toDisposable(dispose: () => void): vscode.Disposable {
  return { dispose };
}

/** Disposes every item, newest first, and empties the list. */
export function disposeAll(disposables: vscode.Disposable[]): void {
  while (disposables.length) disposables.pop()?.dispose();
}

export abstract class Disposable implements vscode.Disposable {
  private _isDisposed = false;
  private readonly _disposables: vscode.Disposable[] = [];

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    disposeAll(this._disposables);
  }

  /** Owns `value`: disposed with this object (at once, when this object is already disposed). */
  protected _register<T extends vscode.Disposable>(value: T): T {
    if (this._isDisposed) value.dispose();
    else this._disposables.push(value);
    return value;
  }

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }
}
