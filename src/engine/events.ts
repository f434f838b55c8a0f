// The compaction event bus: each phase of a compaction with the tokens before and after it, for
// logs, the status bar and tests. Subscribers are called synchronously in the
// order they subscribed; one that throws does not stop the others or the compaction.

export type CompactionPhase = 'selective_start' | 'selective_done' | 'summary_start' | 'summary_done' | 'compaction_performed';

export interface CompactionEvent {
  phase: CompactionPhase;
  tokensBefore: number;
  tokensAfter: number;
  /** Strategy and level the phase ran with, when it has them. */
  strategy?: string;
  level?: string;
}

export type CompactionListener = (e: CompactionEvent) => void;

export class CompactionEventBus {
  private readonly listeners: CompactionListener[] = [];

  /** Returns the function that unsubscribes. */
  subscribe(listener: CompactionListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  emit(e: CompactionEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // A broken listener must not break the compaction it observes.
      }
    }
  }
}
