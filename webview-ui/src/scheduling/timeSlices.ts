// Long work on the webview's only thread (building thousands of rows, diffing thousands of
// messages) runs in short slices with a yield between them, so typing, scrolling and painting
// never wait for it. A Worker would need a worker-src/blob: CSP exception; slicing needs none.

/** Work per slice before yielding: half a 60 Hz frame leaves room for input and paint. */
export const SLICE_BUDGET_MS = 8;

const waiting: (() => void)[] = [];
/** Made on first use: importing this module (a unit test of a view) opens no port. */
let channel: MessageChannel | undefined;

function yieldChannel(): MessageChannel | undefined {
  if (!channel && typeof MessageChannel === 'function') {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  return channel;
}

/** Lets the browser handle input and paint. A MessageChannel task, because nested
 *  setTimeout(0) is clamped to 4 ms and would waste a third of every frame. */
export function yieldToBrowser(): Promise<void> {
  const channel = yieldChannel();
  if (!channel) return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
}

export interface SlicedRun {
  cancel(): void;
  /** True when the work finished, false when it was cancelled. */
  readonly done: Promise<boolean>;
}

/** Calls `step` until it returns false (no more work), yielding every `budgetMs`. */
export function runInSlices(step: () => boolean, budgetMs = SLICE_BUDGET_MS): SlicedRun {
  let cancelled = false;
  const done = (async () => {
    for (;;) {
      const start = performance.now();
      while (performance.now() - start < budgetMs) {
        if (cancelled) return false;
        if (!step()) return true;
      }
      await yieldToBrowser();
      if (cancelled) return false;
    }
  })();
  return {
    cancel: () => {
      cancelled = true;
    },
    done,
  };
}

/** Resolves after the next frame has been painted (rAF runs before paint; the task after it runs after). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
