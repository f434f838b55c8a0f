// Compression performance monitor: over the last WINDOW compactions, the average
// time, compression ratio (tokens after / before), quality score (overall retention) and the
// success rate, plus the total count. In memory; the extension keeps one per window, the CLI
// one per process. Time comes from the caller (CompactionResult.durationMs), never a clock here.

/** Compactions averaged over (the last 100). */
export const PERFORMANCE_WINDOW = 100;

export interface CompactionSession {
  durationMs: number;
  /** tokensAfter / tokensBefore (0..1; smaller is more compression). */
  ratio: number;
  /** Overall retention, 0..1. */
  qualityScore: number;
  /** False when the compaction failed or its loss was not acceptable. */
  success: boolean;
}

export interface PerformanceMetrics {
  avgCompressionTimeMs: number;
  avgCompressionRatio: number;
  avgQualityScore: number;
  successRate: number;
  /** Over the whole life of the monitor, not only the window. */
  totalCompressions: number;
  /** How many sessions the averages cover. */
  window: number;
}

export class PerformanceMonitor {
  private readonly recent: CompactionSession[] = [];
  private total = 0;

  constructor(private readonly windowSize: number = PERFORMANCE_WINDOW) {
    if (!Number.isInteger(windowSize) || windowSize < 1) throw new RangeError(`PerformanceMonitor: expected a window of at least 1, got ${windowSize}`);
  }

  record(session: CompactionSession): void {
    this.recent.push({ ...session });
    if (this.recent.length > this.windowSize) this.recent.shift();
    this.total++;
  }

  metrics(): PerformanceMetrics {
    const n = this.recent.length;
    const avg = (f: (s: CompactionSession) => number) => (n === 0 ? 0 : this.recent.reduce((a, s) => a + f(s), 0) / n);
    return {
      avgCompressionTimeMs: avg((s) => s.durationMs),
      avgCompressionRatio: avg((s) => s.ratio),
      avgQualityScore: avg((s) => s.qualityScore),
      successRate: avg((s) => (s.success ? 1 : 0)),
      totalCompressions: this.total,
      window: n,
    };
  }
}
