// The store's lifecycle: the Disposable base disposes what a class registered, newest first and
// once (at once when registered after disposal); a run's cancellation listener lives exactly as
// long as the run, also when the run fails; disposing the store stops its settings listener.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { ConversationStore } from '../../src/extension/conversationStore';
import { createEngine } from '../../src/extension/engineModules';
import { Disposable } from '../../src/extension/lifecycle';
import { ConversationStateStore } from '../../src/extension/persistence/conversationStateStore';
import { SettingsStore } from '../../src/extension/settings';
import { codingSession } from '../helpers/compactorFixtures';
import { fake, resetFake } from '../fakes/vscode';

class Owner extends Disposable {
  own(d: vscode.Disposable): vscode.Disposable {
    return this._register(d);
  }
}

describe('Disposable', () => {
  it('disposes what was registered, newest first, once; late registrations are disposed at once', () => {
    const order: string[] = [];
    const owner = new Owner();
    owner.own({ dispose: () => order.push('first') });
    owner.own({ dispose: () => order.push('second') });
    owner.dispose();
    owner.dispose();
    expect(order).toEqual(['second', 'first']);
    owner.own({ dispose: () => order.push('late') });
    expect(order).toEqual(['second', 'first', 'late']);
  });
});

/** A cancellation token that counts its live listeners. */
function countingToken(): vscode.CancellationToken & { live: number } {
  const token = {
    live: 0,
    isCancellationRequested: false,
    onCancellationRequested: () => {
      token.live++;
      return { dispose: () => void token.live-- };
    },
  };
  return token as unknown as vscode.CancellationToken & { live: number };
}

describe('the store', () => {
  const KEY = 'file:///work/session.json';
  let store: ConversationStore;
  let settings: SettingsStore;
  let created = 0;
  let broken = false;

  beforeEach(async () => {
    resetFake();
    created = 0;
    broken = false;
    settings = new SettingsStore();
    const engine = createEngine();
    const counting = { ...engine, createCounter: (...a: Parameters<typeof engine.createCounter>) => (created++, engine.createCounter(...a)) };
    store = new ConversationStore({
      engine: counting,
      settings,
      log: { info() {}, warn() {}, error() {}, show() {} },
      archive: new MemoryArchive(),
      states: new ConversationStateStore(join(mkdtempSync(join(tmpdir(), 'ctxc-store-')), 'states')),
      summarizers: {
        create: async () => {
          if (broken) throw new Error('no API key is set');
          return { name: 'extractive' };
        },
        describe: () => 'extractive',
      },
    });
    await store.upsertSource(KEY, codingSession(200), { label: 'session.json', kind: 'transcript' });
  });
  afterEach(() => settings.dispose());

  it('a run’s cancellation listener is gone when the run ends, also when it fails', async () => {
    const token = countingToken();
    await store.preview(KEY, undefined, token);
    expect(token.live).toBe(0);
    await store.apply(KEY, undefined, token);
    expect(token.live).toBe(0);
    broken = true;
    await expect(store.apply(KEY, undefined, token)).rejects.toThrow(/no API key/);
    expect(token.live).toBe(0);
  });

  it('recounts when the counting model changes, and stops listening once disposed', async () => {
    const before = created;
    fake.setConfig('contextCompactor.maxContextTokens', 50_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(created).toBeGreaterThan(before);
    store.dispose();
    const after = created;
    fake.setConfig('contextCompactor.maxContextTokens', 60_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(created).toBe(after);
  });
});
