// CompactOptions.limits: every group of numbers reaches the stage that reads it, defaults are
// DEFAULT_LIMITS exactly, and a bad value is a CompactionInputError naming the group and the name.

import { beforeAll, describe, expect, it } from 'vitest';
import { CompactionInputError, planCompaction } from '../../../src/engine/compactor';
import type { LimitOverrides } from '../../../src/engine/limits';
import { DEFAULT_LIMITS } from '../../../src/engine/limits';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { codingSession } from '../../helpers/compactorFixtures';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await createTokenCounter('gpt-4o');
});

const plan = (limits?: LimitOverrides, extra: Record<string, unknown> = {}) =>
  planCompaction(codingSession(200), { counter, keepRecentRounds: 1, ...(limits ? { limits } : {}), ...extra });
const bytes = (p: ReturnType<typeof plan>) => JSON.stringify({ c: p.conversation, l: p.loss, s: p.sections });

describe('compaction limits', () => {
  it('the defaults are DEFAULT_LIMITS: passing them changes nothing', () => {
    expect(bytes(plan(DEFAULT_LIMITS))).toBe(bytes(plan()));
  });

  it('each group reaches its stage', () => {
    const base = bytes(plan());
    // Section builders: the shortest form of a user message.
    expect(bytes(plan({ segments: { USER_MESSAGE_MAX_CHARS: 20, USER_MESSAGE_MID_CHARS: 15, USER_MESSAGE_MIN_CHARS: 10 } }))).not.toBe(base);
    // Validation: the weights of the overall retention.
    expect(plan({ validate: { RETENTION_WEIGHT_COHERENCE: 0 } }).loss.overallRetention).toBeLessThan(plan().loss.overallRetention);
    // Analysis: importance weights.
    expect(
      plan({ analyze: { WEIGHT_CRITICALITY: 1, WEIGHT_DEPENDENCY: 0, WEIGHT_UNIQUENESS: 0, WEIGHT_ACTIONABILITY: 0 } }).plan.map((p) => p.importance.overall),
    ).not.toEqual(plan().plan.map((p) => p.importance.overall));
    // Strategies: the sliding window.
    const window = (n: number) => bytes(plan({ strategy: { WINDOW_USER_TOOL_MESSAGES: n, WINDOW_ASSISTANT_MESSAGES: n } }, { strategy: 'window', ratio: 0.9 }));
    expect(window(1)).not.toBe(window(4));
  });

  it('a bad value or an unknown name is a clear error', () => {
    expect(() => plan({ tools: { previewTokens: 0 } })).toThrow(CompactionInputError);
    expect(() => plan({ tools: { previewTokens: 0 } })).toThrow(/limits\.tools\.previewTokens: expected a whole number ≥ 1, got 0/);
    expect(() => plan({ tools: { keepRecentToolBlocks: 1.5 } })).toThrow(/limits\.tools\.keepRecentToolBlocks: expected a whole number ≥ 0/);
    expect(() => plan({ validate: { RATIO_MAX: Number.NaN } })).toThrow(/limits\.validate\.RATIO_MAX: expected a finite number ≥ 0, got NaN/);
    expect(() => plan({ segments: { NO_SUCH_LIMIT: 1 } as never })).toThrow(/limits\.segments\.NO_SUCH_LIMIT: unknown/);
    expect(() => plan({ analyze: { ACK_MAX_CHARS: 2.5 } })).toThrow(/ACK_MAX_CHARS: expected a whole number/);
  });
});
