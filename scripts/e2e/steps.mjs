// Named, timed steps. A failing step stops the run with one readable report: which step, what
// was expected, what the page showed, and where the screenshots and logs are.
import { relative } from 'node:path';
import { E2eError } from './page.mjs';

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)}s`;
}

function rel(p) {
  return relative(process.cwd(), p) || p;
}

export class StepFailed extends Error {
  constructor(step, cause, report) {
    super(report);
    this.name = 'StepFailed';
    this.step = step;
    this.cause = cause;
  }
}

/**
 * Runs steps in order and records their timings. `onFailure(step)` may return the path of a
 * failure screenshot and extra lines (e.g. the tail of a log) for the report.
 */
export function createStepRunner({ log = console.log, onFailure = async () => ({}) } = {}) {
  const done = [];
  return {
    done,
    async step(name, fn) {
      const t0 = Date.now();
      log(`[e2e] ▶ ${name}`);
      try {
        const value = await fn();
        const ms = Date.now() - t0;
        done.push({ name, ms, ok: true });
        log(`[e2e] ✓ ${name} (${seconds(ms)})`);
        return value;
      } catch (err) {
        const ms = Date.now() - t0;
        done.push({ name, ms, ok: false });
        const extra = await onFailure(name).catch(() => ({}));
        const lines = [`[e2e] ✗ FAILED at step "${name}" after ${seconds(ms)}`];
        if (err instanceof E2eError) {
          lines.push(`  what went wrong: ${err.message}`);
          if (err.expected !== undefined) lines.push(`  expected: ${err.expected}`);
          if (err.seen !== undefined) lines.push(`  seen:     ${err.seen}`);
        } else {
          lines.push(`  error: ${err && err.message ? err.message : String(err)}`);
          // A TypeError or ReferenceError is a bug in the harness itself: show where.
          if (err instanceof TypeError || err instanceof ReferenceError) lines.push(`  ${err.stack}`);
        }
        if (extra.screenshot) lines.push(`  screenshot of the failure: ${rel(extra.screenshot)}`);
        if (extra.artifacts) lines.push(`  all screenshots and logs: ${rel(extra.artifacts)}`);
        for (const l of extra.lines || []) lines.push(`  ${l}`);
        throw new StepFailed(name, err, lines.join('\n'));
      }
    },
    summary() {
      const width = Math.max(...done.map((d) => d.name.length), 10);
      return done.map((d) => `  ${d.ok ? '✓' : '✗'} ${d.name.padEnd(width)} ${seconds(d.ms).padStart(7)}`).join('\n');
    },
  };
}
