// A live session's title is its first request; an update scans only the messages that are not the
// very objects of the last one (RequestScan), and finds what a scan from the start finds.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/engine/conversation/model';
import { TokenLedger } from '../../src/engine/tokens/ledger';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { firstRequest, RequestScan } from '../../src/sessions/firstRequest';

function user(id: string, text: string, line: number, command?: string): Message {
  return {
    id,
    role: 'user',
    itemType: 'USER_MESSAGE',
    content: [{ type: 'text', text }],
    source: { line, ...(command !== undefined ? { extra: { command } } : {}) },
  } as Message;
}

function assistant(id: string, line: number): Message {
  return { id, role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: 'ok' }], source: { line } } as Message;
}

/** The indices of `list` read through the returned view. */
function watched(list: Message[]): { view: Message[]; read: Set<number> } {
  const read = new Set<number>();
  const view = new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) read.add(Number(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { view, read };
}

describe('RequestScan', () => {
  it('after an append, reads the appended messages only, and finds the first request', () => {
    const scan = new RequestScan();
    const live = [user('u0', '/clear', 1, '/clear'), user('u1', 'fix the parser in src/p.ts', 2), assistant('a1', 3)];
    expect(scan.find(live, [])).toBe('fix the parser in src/p.ts');
    const grown = [...live, user('u2', 'and the tests', 4), assistant('a2', 5)];
    const { view, read } = watched(grown);
    expect(scan.find(view, [], 3)).toBe('fix the parser in src/p.ts');
    expect([...read].sort()).toEqual([3, 4]);
  });

  it('finds what a scan from the start finds, whatever is appended, re-made or dropped', async () => {
    const msg = fc.oneof(
      fc.record({
        kind: fc.constant('user' as const),
        text: fc.constantFrom('', ' ', 'do it', 'fix src/a.ts', '/init'),
        command: fc.option(fc.constantFrom('/init', 'review x'), { nil: undefined }),
        line: fc.nat(30),
      }),
      fc.record({ kind: fc.constant('assistant' as const), line: fc.nat(30) }),
    );
    const counter = await createTokenCounter('gpt-4o');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(msg, { maxLength: 4 }), fc.nat(3)), { maxLength: 6 }), fc.array(msg, { maxLength: 3 }), (steps, hist) => {
        let n = 0;
        const make = (m: (typeof hist)[number]) => (m.kind === 'user' ? user(`m${n++}`, m.text, m.line, m.command) : assistant(`m${n++}`, m.line));
        const history = hist.map(make);
        const scan = new RequestScan();
        const ledger = new TokenLedger(counter);
        let live: Message[] = [];
        for (const [added, remade] of steps) {
          // The open tail re-made (new objects), then messages appended.
          const keep = Math.max(0, live.length - remade);
          live = [...live.slice(0, keep), ...live.slice(keep).map((m) => ({ ...m })), ...added.map(make)];
          ledger.sync(live);
          expect(ledger.sameObjects).toBeLessThanOrEqual(keep);
          expect(scan.find(live, history, ledger.sameObjects)).toBe(firstRequest(live, history));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('TokenLedger.sameObjects', () => {
  it('is how many of the first messages the last sync was given were the very objects it held', async () => {
    const ledger = new TokenLedger(await createTokenCounter('gpt-4o'));
    const a = [user('a', 'one', 1), user('b', 'two', 2), user('c', 'three', 3)];
    ledger.sync(a);
    expect(ledger.sameObjects).toBe(0);
    ledger.sync([...a, user('d', 'four', 4)]);
    expect(ledger.sameObjects).toBe(3);
    ledger.sync([a[0]!, { ...a[1]! }, a[2]!]);
    expect(ledger.sameObjects).toBe(1);
  });
});
