// Stage 1 of the pipeline: the caller's options, checked, with the defaults applied. Every
// later stage reads ResolvedOptions, never the raw options, so a default lives in one place
// (COMPACTION_DEFAULTS, DEFAULT_LIMITS) and a bad option fails before any work is done.

import { resolveConstants as resolveAnalyzeConstants } from '../analyze/constants';
import type { ArchiveStore } from '../archive/archiveStore';
import type { ContentHasher } from '../archive/contentHasher';
import { CompactionCache } from './cache';
import type { CompactionEventBus } from '../events';
import { DEFAULT_LIMITS, type CompactionLimits, type LimitOverrides } from '../limits';
import type { PerformanceMonitor } from '../performanceMonitor';
import type { CompactionEdits } from '../result';
import type { CompactionLevel } from '../strategies/levelStrategy';
import { getStrategy } from '../strategies/registry';
import type { Strategy } from '../strategies/strategy';
import type { Summarizer } from '../summarizer';
import type { CachedTokenCounter } from '../tokens/messageCounter';

export type { CompactionLevel } from '../strategies/levelStrategy';

export interface CompactionDefaults {
  keepRecentRounds: number;
  strategy: string;
  level: CompactionLevel;
  /** The summary's own token limit (the extension's setting summaryMaxLength). 3,000 tokens
   *  holds the eight sections of a long session with every user message and file named,
   *  while staying a small fraction of any current context window. */
  summaryMaxTokens: number;
  /** Target size of the result as a share of the original when neither budget nor ratio is
   *  given: 0.3 frees most of the window while leaving room for the recent rounds verbatim. */
  targetRatio: number;
}

/** One source of defaults for the CLI and the extension, so both give the same result. */
export const COMPACTION_DEFAULTS: CompactionDefaults = {
  keepRecentRounds: 2,
  strategy: 'adaptive',
  level: 'normal',
  summaryMaxTokens: 3000,
  targetRatio: 0.3,
};

/** Share of the room left after header and pinned messages that the summary is expected to
 *  take before the recent messages are chosen (the summary then takes whatever they leave). */
export const SUMMARY_RESERVE_SHARE = 0.5;
/** The summary's sections always get at least this many tokens. */
export const SUMMARY_MIN_TOKENS = 200;
/** After this many compactions a warning says quality may degrade: each summary merges the
 *  last, and what a summary shortened cannot come back in the next one. */
export const COMPACTION_WARN_AFTER = 5;

export interface CompactOptions {
  counter: CachedTokenCounter;
  archive: ArchiveStore;
  /** The SHA-256 the archive keys are computed with; default: the engine's own (pureSha256). A
   *  Node host passes its native one (nodeSha256): the same keys, faster. */
  hasher?: ContentHasher;
  /** Target size of the whole result, in tokens. */
  budget?: number;
  /** Target size of the whole result as a share of the original (0 < ratio ≤ 1). */
  ratio?: number;
  keepRecentRounds?: number;
  strategy?: string;
  level?: CompactionLevel;
  focus?: string;
  /** Default: the extractive summarizer. */
  summarizer?: Summarizer;
  edits?: CompactionEdits;
  signal?: AbortSignal;
  onProgress?: (p: { phase: string; fraction?: number }) => void;
  /** ISO clock for stats.timestamp (CLI/extension pass real time; tests pass fixed). */
  now?: string;
  /** Any of the numbers in DEFAULT_LIMITS, by group and name. */
  limits?: LimitOverrides;
  /** The summary's own token limit. Default: COMPACTION_DEFAULTS.summaryMaxTokens when no
   *  budget or ratio is given; with an explicit target, the target alone bounds it. */
  summaryMaxTokens?: number;
  /** Milliseconds clock for durationMs (e.g. () => performance.now()); without one durationMs is 0. */
  clock?: () => number;
  /** Records this compaction (time, ratio, retention, success). */
  monitor?: PerformanceMonitor;
  /** Per-message work kept from earlier compactions of the same conversation (the extension
   *  keeps one per conversation), so a plan after a few appended messages costs those messages. */
  cache?: CompactionCache;
  /** Phase events with tokens before/after: selective_start/done (the strategy's in-place work:
   *  drops, masks, previews), summary_start/done, compaction_performed. */
  events?: CompactionEventBus;
}

export type PlanOptions = Omit<CompactOptions, 'archive' | 'hasher' | 'summarizer' | 'signal' | 'monitor' | 'events'> & { archive?: ArchiveStore };

/** Input a caller got wrong (bad option, malformed conversation): the message says which and what was expected. */
export class CompactionInputError extends Error {
  override name = 'CompactionInputError';
}

/** Rejection of a cancelled compaction (signal aborted). Nothing was returned or half-written. */
export class CompactionAbortedError extends Error {
  override name = 'AbortError';
  constructor() {
    super('compaction cancelled');
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CompactionAbortedError();
}

/** The options every stage reads: checked, defaults applied. */
export interface ResolvedOptions {
  counter: CachedTokenCounter;
  budget: number | undefined;
  ratio: number | undefined;
  keepRecentRounds: number;
  strategy: Strategy;
  level: CompactionLevel;
  focus: string | undefined;
  edits: CompactionEdits | undefined;
  /** The summary's limit the caller gave (undefined: the default rule of CompactOptions). */
  summaryMaxTokens: number | undefined;
  limits: CompactionLimits;
  /** The original goes to a durable archive (undo can restore it): only then does the summary say so. */
  archived: boolean;
  /** The caller's cache, else one for this compaction alone. */
  cache: CompactionCache;
}

export function positiveInt(name: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new CompactionInputError(`${name}: expected a positive number of tokens, got ${String(v)}`);
  return Math.floor(v);
}

export function resolveOptions(opts: PlanOptions): ResolvedOptions {
  if (!opts || typeof opts !== 'object' || !opts.counter || typeof opts.counter.countMessage !== 'function') {
    throw new CompactionInputError('options.counter: expected a token counter (createTokenCounter(model))');
  }
  if (opts.budget !== undefined && opts.ratio !== undefined) throw new CompactionInputError('budget and ratio: expected one of them, not both');
  const budget = positiveInt('budget', opts.budget);
  if (opts.ratio !== undefined && (typeof opts.ratio !== 'number' || !(opts.ratio > 0 && opts.ratio <= 1))) {
    throw new CompactionInputError(`ratio: expected a number in (0, 1], got ${String(opts.ratio)}`);
  }
  if (opts.cache !== undefined && !(opts.cache instanceof CompactionCache))
    throw new CompactionInputError('options.cache: expected a CompactionCache (new CompactionCache())');
  const keepRecentRounds = opts.keepRecentRounds ?? COMPACTION_DEFAULTS.keepRecentRounds;
  if (!Number.isInteger(keepRecentRounds) || keepRecentRounds < 0)
    throw new CompactionInputError(`keepRecentRounds: expected a whole number ≥ 0, got ${String(keepRecentRounds)}`);
  return {
    counter: opts.counter,
    budget,
    ratio: opts.ratio,
    keepRecentRounds,
    strategy: getStrategy(opts.strategy ?? COMPACTION_DEFAULTS.strategy),
    level: opts.level ?? COMPACTION_DEFAULTS.level,
    focus: opts.focus,
    edits: opts.edits,
    summaryMaxTokens: positiveInt('summaryMaxTokens', opts.summaryMaxTokens),
    limits: resolveLimits(opts.limits),
    archived: opts.archive?.durable === true,
    cache: opts.cache ?? new CompactionCache({ reused: false }),
  };
}

/** Tool limits that count things (blocks) may be 0; sizes must be at least 1 token. */
const TOOL_LIMIT_MIN: Readonly<Record<keyof CompactionLimits['tools'], number>> = {
  toolArgumentTokens: 1,
  toolResultTokens: 1,
  previewTokens: 1,
  keepRecentToolBlocks: 0,
  offloadTokens: 1,
};

function overlay<T extends object>(group: string, defaults: T, overrides: Partial<T> | undefined, check: (name: string, v: number) => void): T {
  if (overrides === undefined) return defaults;
  if (overrides === null || typeof overrides !== 'object') throw new CompactionInputError(`limits.${group}: expected an object of names to numbers`);
  const out = { ...defaults };
  for (const [name, v] of Object.entries(overrides) as [string, unknown][]) {
    if (v === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(defaults, name))
      throw new CompactionInputError(`limits.${group}.${name}: unknown; expected one of ${Object.keys(defaults).join(', ')}`);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new CompactionInputError(`limits.${group}.${name}: expected a finite number ≥ 0, got ${String(v)}`);
    check(name, v);
    (out as Record<string, number>)[name] = v;
  }
  return out;
}

/** DEFAULT_LIMITS with the caller's overrides, each checked. */
export function resolveLimits(overrides: LimitOverrides | undefined): CompactionLimits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  const none = () => undefined;
  return {
    tools: overlay('tools', DEFAULT_LIMITS.tools, overrides.tools, (name, v) => {
      const min = TOOL_LIMIT_MIN[name as keyof typeof TOOL_LIMIT_MIN];
      if (!Number.isInteger(v) || v < min) throw new CompactionInputError(`limits.tools.${name}: expected a whole number ≥ ${min}, got ${v}`);
    }),
    // The analyzer checks its own constants (whole numbers, divisors) and names the bad one.
    analyze: overrides.analyze === undefined ? DEFAULT_LIMITS.analyze : resolveAnalyzeConstants(overrides.analyze),
    strategy: overlay('strategy', DEFAULT_LIMITS.strategy, overrides.strategy, none),
    segments: overlay('segments', DEFAULT_LIMITS.segments, overrides.segments, none),
    validate: overlay('validate', DEFAULT_LIMITS.validate, overrides.validate, none),
  };
}
