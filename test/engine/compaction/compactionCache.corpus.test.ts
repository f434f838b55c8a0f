// A CompactionCache kept across plans of a growing conversation changes how long a plan takes,
// never the plan: planning each longer prefix of a real transcript with one cache gives exactly
// what a plan with no cache gives, with several option sets, and for a re-imported copy (new
// message objects with the same content) as well.

import { describe, expect, it } from 'vitest';
import { CompactionCache } from '../../../src/engine/compaction/cache';
import { planCompaction, type PlanOptions } from '../../../src/engine/compactor';
import type { Conversation } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { importShared } from '../../helpers/sharedConversation';

const FILES: [string, { wholeFile?: boolean }][] = [
  ['mini-swe-agent/django__django-11138.traj.json', {}],
  ['aider/AFI-Protocol__afi-core.aider.chat.history.md', {}],
  ['claude-code/kiliman__claude-transcript__test2.jsonl', { wholeFile: true }],
];

const OPTION_SETS: Omit<PlanOptions, 'counter'>[] = [{}, { ratio: 0.1, level: 'heavy' }, { focus: 'the failing tests', keepRecentRounds: 1 }];

const NOW = '2026-01-01T00:00:00.000Z';

describe('planning a growing real conversation with one cache', () => {
  it.each(FILES)('%s: every prefix plans as with no cache', async (rel, opts) => {
    const conv = importShared(rel, opts);
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
});
