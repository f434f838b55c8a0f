// The ledger keeps the status bar's count current as a conversation grows: an append must
// cost the new message only, and the running totals must always equal a full report.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationFrom, transcriptTexts } from '../../../bench/lib/corpus';
import type { Message, ReportedUsage } from '../../../src/engine/conversation/model';
import { calibrate } from '../../../src/engine/tokens/calibration';
import { TokenLedger } from '../../../src/engine/tokens/ledger';
import { createTokenCounter, type CachedTokenCounter, MESSAGE_OVERHEAD, REPLY_PRIMING, sameBilledContent } from '../../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../../src/engine/tokens/report';
import { transcriptPath } from '../../helpers/transcripts';

let texts: string[];
beforeAll(() => {
  texts = transcriptTexts(transcriptPath('mini-swe-agent/django__django-11138.traj.json')).filter((t) => t.length > 20);
});

function message(id: string, text: string, itemType: Message['itemType'] = 'USER_MESSAGE'): Message {
  const role = itemType === 'ASSISTANT_MESSAGE' ? 'assistant' : itemType === 'TOOL_RESULT' ? 'tool' : itemType === 'SYSTEM_PROMPT' ? 'system' : 'user';
  return { id, role, itemType, content: [{ type: 'text', text }] };
}

/** Messages that use every billed part: names, thinking, images, tool calls, tool definitions. */
function richMessages(): Message[] {
  return [
    message('s', 'You are a careful assistant.', 'SYSTEM_PROMPT'),
    {
      id: 'd',
      role: 'system',
      itemType: 'TOOL_DEFINITIONS',
      content: [],
      toolDefinitions: [{ name: 'bash', description: 'run a command', parameters: { type: 'object' } }],
    },
    {
      id: 'u',
      role: 'user',
      itemType: 'USER_MESSAGE',
      name: 'alice',
      content: [
        { type: 'text', text: '看看这个错误' },
        { type: 'image', placeholder: '[image]' },
      ],
    },
    {
      id: 'a',
      role: 'assistant',
      itemType: 'ASSISTANT_MESSAGE',
      content: [
        { type: 'thinking', text: 'The user wants the error explained.' },
        { type: 'text', text: 'Running the tests.' },
      ],
      toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' }],
    },
    {
      id: 't',
      role: 'tool',
      itemType: 'TOOL_RESULT',
      content: [{ type: 'text', text: 'FAIL test/x.test.ts' }],
      toolResult: { toolCallId: 'c1', isError: true },
    },
    message('k', 'Summary of earlier work.', 'COMPACTION_SUMMARY'),
  ];
}

describe('TokenLedger', () => {
  let counter: CachedTokenCounter;
  beforeAll(async () => {
    counter = await createTokenCounter('gpt-4o');
  });

  it('reports exactly what tokenReport reports, on a real transcript', () => {
    const messages = conversationFrom(texts, (ms) => ms.length >= 60);
    const ledger = new TokenLedger(counter, messages);
    expect(ledger.report()).toEqual(tokenReport(messages, counter));
    expect(ledger.total).toBe(counter.countMessages(messages));
  });

  it('an append encodes only the new message', () => {
    const messages = conversationFrom(texts, (ms) => ms.length >= 80);
    const ledger = new TokenLedger(counter, messages);
    const before = counter.encodedMessages;
    const added = message('new', `a new question nobody asked before ${texts.length}: why does CONVERT_TZ return NULL?`);
    const change = ledger.append(added);
    expect(change).toEqual({ appended: 1, replaced: 0, removed: 0, encoded: 1 });
    expect(counter.encodedMessages - before).toBe(1);
    expect(ledger.report()).toEqual(tokenReport([...messages, added], counter));
  });

  it('sync with a re-imported copy plus one new message encodes one message', () => {
    const messages = conversationFrom(texts, (ms) => ms.length >= 50);
    const ledger = new TokenLedger(counter, messages);
    const reimported = [...structuredClone(messages), message('fresh', 'a message appended after the re-import, never seen: 7f3a')];
    const change = ledger.sync(reimported);
    expect(change).toEqual({ appended: 1, replaced: 0, removed: 0, encoded: 1 });
    expect(ledger.report()).toEqual(tokenReport(reimported, counter));
  });

  it('sync with the same objects touches nothing', () => {
    const messages = conversationFrom(texts, (ms) => ms.length >= 30);
    const ledger = new TokenLedger(counter, messages);
    expect(ledger.sync(messages)).toEqual({ appended: 0, replaced: 0, removed: 0, encoded: 0 });
  });

  it('replace and truncate keep the totals right (an edit, a compaction)', () => {
    const messages = richMessages();
    const ledger = new TokenLedger(counter, messages);
    const edited = { ...messages[2]!, content: [{ type: 'text' as const, text: 'a different, longer question about the error' }] };
    expect(ledger.replace(2, edited).encoded).toBe(1);
    const now = [...messages.slice(0, 2), edited, ...messages.slice(3)];
    expect(ledger.report()).toEqual(tokenReport(now, counter));
    expect(ledger.truncate(3)).toMatchObject({ removed: 3, encoded: 0 });
    expect(ledger.report()).toEqual(tokenReport(now.slice(0, 3), counter));
    expect(ledger.truncate(0).removed).toBe(3);
    expect(ledger.total).toBe(0);
    expect(ledger.report()).toEqual(tokenReport([], counter));
  });

  it('breaks a message down by category, summing to its total', () => {
    const ledger = new TokenLedger(counter, richMessages());
    const by = ledger.byCategory();
    for (const c of ['system', 'toolDefinitions', 'user', 'assistant', 'toolCalls', 'toolResults', 'thinking', 'summary'] as const) {
      expect(by[c], c).toBeGreaterThan(0);
    }
    expect(Object.values(by).reduce((a, b) => a + b, 0)).toBe(ledger.total);
    for (let i = 0; i < ledger.length; i++) {
      const t = ledger.tokensAt(i);
      expect(Object.values(t.byCategory).reduce((a, b) => a + (b ?? 0), 0)).toBe(t.total);
      expect(t.total).toBeGreaterThan(MESSAGE_OVERHEAD);
    }
    expect(ledger.total).toBe(Array.from({ length: ledger.length }, (_, i) => ledger.tokensAt(i).total).reduce((a, b) => a + b, 0) + REPLY_PRIMING);
  });

  it('names a bad index instead of corrupting the totals', () => {
    const ledger = new TokenLedger(counter, richMessages());
    expect(() => ledger.replace(99, message('x', 'y'))).toThrow(/cannot replace index 99 \(length 6\)/);
    expect(() => ledger.tokensAt(-1)).toThrow(/no message at index -1/);
  });

  it('equals a full report after any sequence of appends, replacements, truncations and syncs', async () => {
    const pool = richMessages().concat(conversationFrom(texts.slice(0, 40), () => false));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), pick: fc.nat() }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('syncCopy' as const) }),
      fc.record({ kind: fc.constant('syncEdit' as const), at: fc.nat(), pick: fc.nat() }),
    );
    const fresh = await createTokenCounter('claude-sonnet-4');
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        let current: Message[] = [];
        const ledger = new TokenLedger(fresh);
        for (const o of ops) {
          const pick = 'pick' in o ? pool[o.pick % pool.length]! : undefined;
          if (o.kind === 'append') {
            ledger.append(pick!);
            current = [...current, pick!];
          } else if (o.kind === 'replace' && current.length > 0) {
            ledger.replace(o.at % current.length, pick!);
            current = current.map((m, i) => (i === o.at % current.length ? pick! : m));
          } else if (o.kind === 'truncate') {
            const keep = current.length === 0 ? 0 : o.at % (current.length + 1);
            ledger.truncate(keep);
            current = current.slice(0, keep);
          } else if (o.kind === 'syncCopy') {
            current = structuredClone(current);
            ledger.sync(current);
          } else if (o.kind === 'syncEdit' && current.length > 0) {
            const at = o.at % current.length;
            current = [...current.slice(0, at), pick!];
            ledger.sync(current);
          }
          expect(ledger.report()).toEqual(tokenReport(current, fresh));
        }
      }),
      { numRuns: 60, seed: 11 },
    );
  });
});

describe('the calibration against a reported usage', () => {
  let counter: CachedTokenCounter;
  beforeAll(async () => {
    counter = await createTokenCounter('claude-sonnet-4-5');
  });
  const conversation = (): Message[] => [
    message('u1', texts[0]!),
    message('a1', texts[1]!, 'ASSISTANT_MESSAGE'),
    message('u2', texts[2]!),
    message('a2', texts[3]!, 'ASSISTANT_MESSAGE'),
  ];
  /** The API counted 12,000 tokens for the request a2 answered (system prompt and tools included). */
  const usage: ReportedUsage = { tokens: 12_000, source: 'anthropic', atMessageId: 'a2', index: 3, parts: { input: 12_000 } };

  it('the overhead is the figure less our count of the messages that request held; total = figure + counted since', () => {
    const messages = conversation();
    const cal = calibrate(messages, usage, counter)!;
    const asOf = counter.countMessages(messages.slice(0, 3));
    expect(cal).toEqual({ usage, countedAsOf: asOf, overhead: 12_000 - asOf });
    const r = new TokenLedger(counter, messages).report({ calibration: cal });
    expect(r.total).toBe(12_000 + counter.countMessage(messages[3]!));
    expect(r.counted).toBe(counter.countMessages(messages));
    expect(r.overhead).toBe(cal.overhead);
    expect(r.byCategory.unseen).toBe(cal.overhead);
    expect(Object.values(r.byCategory).reduce((a, b) => a + b, 0)).toBe(r.total);
    expect(r.percent).toBe(Math.round((r.total / r.window) * 1000) / 10);
    expect(r.reported).toEqual({ usage, countedAsOf: asOf, countedSince: counter.countMessage(messages[3]!) });
    // The ledger and a full report agree.
    expect(tokenReport(messages, counter, { reportedUsage: usage })).toEqual(r);
  });

  it('messages appended since are counted on top; the overhead stays', () => {
    const messages = conversation();
    const ledger = new TokenLedger(counter, messages);
    const cal = calibrate(messages, usage, counter)!;
    const before = ledger.report({ calibration: cal });
    const added = message('u3', texts[4]!);
    ledger.append(added);
    const after = ledger.report({ calibration: cal });
    expect(after.overhead).toBe(before.overhead);
    expect(after.total - before.total).toBe(counter.countMessage(added));
    expect(after.reported!.countedSince).toBe(before.reported!.countedSince! + counter.countMessage(added));
  });

  it('a view without the answer (compacted) is our count plus the overhead; no figure, no change', () => {
    const messages = conversation();
    const cal = calibrate(messages, usage, counter)!;
    const compacted = [message('k', 'Summary of the first turns.', 'COMPACTION_SUMMARY'), message('u3', texts[4]!)];
    const r = new TokenLedger(counter, compacted).report({ calibration: cal });
    expect(r.total).toBe(counter.countMessages(compacted) + cal.overhead);
    expect(r.reported!.countedSince).toBeUndefined();
    expect(calibrate(compacted, usage, counter)).toBeUndefined();
    expect(calibrate(messages, undefined, counter)).toBeUndefined();
    const plain = new TokenLedger(counter, messages).report();
    expect(plain).toMatchObject({ total: plain.counted, overhead: 0 });
    expect(plain.reported).toBeUndefined();
  });

  it('a figure below our count of the messages it covered is implausible: not used, the total is our count, no category negative', () => {
    const messages = conversation();
    const low: ReportedUsage = { ...usage, tokens: 10 };
    const r = tokenReport(messages, counter, { reportedUsage: low });
    expect(r.overhead).toBe(0);
    expect(r.total).toBe(r.counted);
    expect(r.reported).toBeUndefined();
    expect(r.implausible).toEqual({ usage: low, countedAsOf: counter.countMessages(messages.slice(0, 3)) });
    for (const n of Object.values(r.byCategory)) expect(n).toBeGreaterThanOrEqual(0);
    expect(Object.values(r.byCategory).reduce((a, b) => a + b, 0)).toBe(r.total);
    // Within the rounding its source prints, a figure a little below our count is no contradiction:
    // used, with nothing outside the file.
    const asOf = counter.countMessages(messages.slice(0, 3));
    const rounded = tokenReport(messages, counter, { reportedUsage: { ...usage, tokens: asOf - 40, rounding: 50 } });
    expect(rounded).toMatchObject({ overhead: 0, total: rounded.counted });
    expect(rounded.implausible).toBeUndefined();
    expect(rounded.reported).toBeDefined();
  });

  it('a session we wrote, before its agent answered, builds on what it inherited: overhead and window', () => {
    const messages = conversation();
    const r = tokenReport(messages, counter, { inherited: { overhead: 5_000, window: 150_000, model: 'claude-sonnet-4-5' } });
    expect(r).toMatchObject({ overhead: 5_000, total: r.counted + 5_000, window: 150_000, inherited: { overhead: 5_000, window: 150_000 } });
    expect(r.byCategory.unseen).toBe(5_000);
    expect(r.percent).toBe(Math.round(((r.counted + 5_000) / 150_000) * 1000) / 10);
    // Once the agent has recorded usage of its own, that is what counts.
    const own = tokenReport(messages, counter, { reportedUsage: usage, inherited: { overhead: 5_000 } });
    expect(own.overhead).toBe(12_000 - counter.countMessages(messages.slice(0, 3)));
    expect(own.inherited).toBeUndefined();
  });
});

describe('CachedTokenCounter', () => {
  it('counts a message once, whether it comes back as the same object or as a copy', async () => {
    const counter = await createTokenCounter('gpt-4.1');
    const m = message('q', 'How many tokens is this sentence?');
    const n = counter.countMessage(m);
    expect(counter.encodedMessages).toBe(1);
    expect(counter.countMessage(m)).toBe(n);
    expect(counter.countMessage(structuredClone(m))).toBe(n);
    expect(counter.encodedMessages).toBe(1);
    expect(counter.countMessage({ ...m, content: [{ type: 'text', text: 'How many tokens is this sentence!' }] })).toBe(n);
    expect(counter.encodedMessages).toBe(2);
  });

  it('counts message text with the model’s encoding plus the chat overhead', async () => {
    const counter = await createTokenCounter('gpt-4');
    expect(counter.encoding).toBe('cl100k_base');
    const text = 'Hello, world! 你好，世界！';
    expect(counter.countMessage(message('h', text))).toBe(counter.count(text) + MESSAGE_OVERHEAD);
    expect(counter.countMessages([])).toBe(0);
  });
});

describe('sameBilledContent', () => {
  it('is true for a copy and false when anything billed differs', () => {
    const [, defs, user, assistant] = richMessages();
    for (const m of [defs!, user!, assistant!]) expect(sameBilledContent(m, structuredClone(m))).toBe(true);
    expect(sameBilledContent(user!, { ...user!, name: 'bob' })).toBe(false);
    expect(sameBilledContent(user!, { ...user!, itemType: 'MEMORY' })).toBe(false);
    expect(sameBilledContent(user!, { ...user!, content: user!.content.slice(0, 1) })).toBe(false);
    expect(sameBilledContent(assistant!, { ...assistant!, toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] })).toBe(false);
    expect(sameBilledContent(assistant!, { ...assistant!, content: [{ type: 'text', text: 'x' }, assistant!.content[1]!] })).toBe(false);
    expect(sameBilledContent(defs!, { ...defs!, toolDefinitions: [{ name: 'sh' }] })).toBe(false);
    // Not billed: ids, timestamps, sources.
    expect(sameBilledContent(user!, { ...user!, id: 'other', timestamp: '2024-01-01T00:00:00Z' })).toBe(true);
  });
});
