// The adaptive strategy tries its steps in order and builds decisions only for the one it takes:
// a step passed over is measured by keptTokensOf, from the messages it keeps. That figure must be
// what the step's decisions would keep (keptTokens of decisionsFrom), or the chain would choose
// differently. Shown on real transcripts with pins, for every step the chain can try.

import { describe, expect, it } from 'vitest';
import { planBudget } from '../../../src/engine/compaction/budget';
import { strategyContext } from '../../../src/engine/compaction/decisions';
import { measureInput } from '../../../src/engine/compaction/input';
import { resolveOptions } from '../../../src/engine/compaction/options';
import { incrementalKeep } from '../../../src/engine/strategies/incrementalStrategy';
import { keyEventsKeep } from '../../../src/engine/strategies/keyEventsStrategy';
import { importanceKeep } from '../../../src/engine/strategies/importanceStrategy';
import { levelChoice } from '../../../src/engine/strategies/levelStrategy';
import { decisionsFrom, keptTokens, keptTokensOf } from '../../../src/engine/strategies/turns';
import { windowKeep } from '../../../src/engine/strategies/windowStrategy';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { importShared } from '../../helpers/sharedConversation';

const FILES = [
  'aider/AFI-Protocol__afi-core.aider.chat.history.md',
  'claude-code/kiliman__claude-transcript__test2.jsonl',
  'mini-swe-agent/django__django-11138.traj.json',
];

describe('keptTokensOf: a step measured without its decisions', () => {
  it.each(FILES)('%s: every step keeps what its decisions keep', async (rel) => {
    const conv = importShared(rel);
    const counter = await createTokenCounter(conv.meta.model);
    // With a few messages in the middle restored (fixed, so they count for no step), and without.
    const pins = conv.messages.filter((_, i) => i % 17 === 5).map((m) => m.id);
    let replacements = 0;
    for (const restore of [[], pins]) {
      const options = resolveOptions({ counter, edits: { restore } });
      const input = measureInput(conv, options);
      const ctx = strategyContext(input, options, planBudget(input, options), 0);
      const choices = [
        { keep: windowKeep(ctx) },
        { keep: keyEventsKeep(ctx) },
        { keep: importanceKeep(ctx) },
        { keep: incrementalKeep(ctx) },
        levelChoice(ctx, 'normal'),
        levelChoice(ctx, 'heavy'),
        levelChoice(ctx, 'emergency'),
      ];
      for (const choice of choices) {
        const replaced = 'replaced' in choice ? choice.replaced : undefined;
        const expected = keptTokens(ctx, decisionsFrom(ctx, choice.keep, 'summarized', replaced));
        expect(keptTokensOf(ctx, choice.keep, replaced)).toBe(expected);
      }
      expect(input.keptAlways.size).toBeGreaterThanOrEqual(restore.length > 0 ? 1 : 0);
      replacements += levelChoice(ctx, 'normal').replaced.size;
    }
    // The normal level shortens small topic groups of the aider history: replacements are counted.
    if (rel.startsWith('aider/')) expect(replacements).toBeGreaterThan(0);
  });
});
