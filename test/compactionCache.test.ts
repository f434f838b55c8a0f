// A CompactionCache kept across plans of a growing conversation changes how long a plan takes,
// never the plan: planning each longer prefix of a real transcript with one cache gives exactly
// what a plan with no cache gives, with several option sets, and for a re-imported copy (new
// message objects with the same content) as well. The same conversation planned again with the
// same options is the kept plan; with other options, or after it grew, a new one.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CompactionCache } from '../src/engine/compaction/cache';
import { planCompaction, type PlanOptions } from '../src/engine/compactor';
import { importTranscript } from '../src/engine/conversation/importers/detect';
import type { Conversation } from '../src/engine/conversation/model';
import { createTokenCounter } from '../src/engine/tokens/messageCounter';
import { transcriptPath } from './helpers/transcripts';

const FILES: [string, { wholeFile?: boolean }][] = [
  ['mini-swe-agent/django__django-11138.traj.json', {}],
  ['aider/AFI-Protocol__afi-core.aider.chat.history.md', {}],
  ['claude-code/kiliman__claude-transcript__test2.jsonl', { wholeFile: true }],
];

const OPTION_SETS: Omit<PlanOptions, 'counter'>[] = [{}, { ratio: 0.1, level: 'heavy' }, { focus: 'the failing tests', keepRecentRounds: 1 }];

const NOW = '2026-01-01T00:00:00.000Z';

function load(rel: string, opts: { wholeFile?: boolean }): Conversation {
  const path = transcriptPath(rel);
  return importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, ...opts }).conversation;
}

describe('planning a growing conversation with one cache', () => {
  it.each(FILES)('%s: every prefix plans as with no cache', async (rel, opts) => {
    const conv = load(rel, opts);
    const counter = await createTokenCounter(conv.meta.model);
    const n = conv.messages.length;
    for (const options of OPTION_SETS) {
      const cache = new CompactionCache();
      for (const k of [Math.ceil(n * 0.6), Math.ceil(n * 0.6) + 1, Math.ceil(n * 0.8), n - 1, n]) {
        const prefix: Conversation = { ...conv, messages: conv.messages.slice(0, k) };
        const warm = planCompaction(prefix, { counter, cache, now: NOW, ...options });
        const cold = planCompaction(prefix, { counter, now: NOW, ...options });
        expect(warm).toEqual(cold);
      }
      // A copy imported again: other objects, the same content.
      const copy = structuredClone(conv);
      expect(planCompaction(copy, { counter, cache, now: NOW, ...options })).toEqual(planCompaction(copy, { counter, now: NOW, ...options }));
    }
  });

  it('gives the kept plan for the same conversation and options, a new one otherwise', async () => {
    const conv = load(FILES[0]![0], {});
    const counter = await createTokenCounter(conv.meta.model);
    const cache = new CompactionCache();
    const first = planCompaction(conv, { counter, cache, now: NOW });
    expect(planCompaction(conv, { counter, cache, now: NOW })).toEqual(first);
    expect(cache.stats).toEqual({ plans: 1, reusedPlans: 1 });
    planCompaction(conv, { counter, cache, now: NOW, level: 'heavy' });
    planCompaction({ ...conv, messages: [...conv.messages] }, { counter, cache, now: NOW, level: 'heavy' });
    expect(cache.stats).toEqual({ plans: 3, reusedPlans: 1 });
    // What a caller does to a preview does not reach the kept plan.
    first.conversation.messages.length = 0;
    first.warnings.push('changed by the caller');
    const again = planCompaction(conv, { counter, cache, now: NOW, level: 'heavy' });
    expect(again.conversation.messages.length).toBeGreaterThan(0);
    expect(again.warnings).not.toContain('changed by the caller');
  });

  it('refuses a cache that is not one', async () => {
    const conv = load(FILES[0]![0], {});
    const counter = await createTokenCounter(conv.meta.model);
    expect(() => planCompaction(conv, { counter, cache: {} as CompactionCache })).toThrow(/options.cache: expected a CompactionCache/);
  });
});
