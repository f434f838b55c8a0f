// Timing for `npm run bench`: warm-up runs, N timed repetitions, the median, and ratios
// against baselines measured in the same run (never against numbers from another machine).

export interface MeasureOptions {
  /** Untimed runs first, so the JIT has compiled the code being timed. Default 1. */
  warmup?: number;
  /** Timed runs; the median is reported. Default 5. */
  reps?: number;
  /** Untimed preparation before every run (e.g. clearing a cache for a cold measurement). */
  before?: () => void;
}

export interface Measurement {
  /** Milliseconds per run, in run order. */
  samples: number[];
  median: number;
  min: number;
  max: number;
}

/** Collect garbage between measurements when node runs with --expose-gc (npm run bench does). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function summarize(samples: number[]): Measurement {
  return { samples, median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

/** Times `fn`: `warmup` untimed runs, then `reps` timed ones. Async functions are awaited. */
export async function measure(fn: () => unknown, opts: MeasureOptions = {}): Promise<Measurement> {
  const { warmup = 1, reps = 5, before } = opts;
  for (let i = 0; i < warmup; i++) {
    before?.();
    await fn();
  }
  collectGarbage();
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    before?.();
    const t0 = performance.now();
    const r = fn();
    if (r instanceof Promise) await r;
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
}

/** How many times faster `fast` is than `slow` (both in ms). */
export function speedup(slowMs: number, fastMs: number): number {
  return slowMs / fastMs;
}

export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a';
  if (r >= 100) return `${Math.round(r).toLocaleString('en-US')}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  return `${r.toFixed(2)}×`;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms >= 100) return `${Math.round(ms).toLocaleString('en-US')} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(3)} ms`;
}

/** Throughput in MB/s (10⁶ bytes) for `bytes` processed in `ms`. */
export function megabytesPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}

export function formatMBps(mbps: number): string {
  return `${mbps.toFixed(2)} MB/s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
