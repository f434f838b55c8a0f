// Limits: what following a live session costs when the session is huge or hostile. An outside
// review measured, before the limit: following a 200 MB session used 561 MB, and a line with no
// newline made every update re-join it (3.8 s at 64 MB, 31 s at 320 MB). Each case runs in its
// own process (peak RSS = the process's maxRSS):
//   - grow: a Claude Code session (the largest shared one, repeated with fresh uuids) appended to
//     in 8 MB steps up to 200 MB, the live meter updated after each; past SESSION_MAX_BYTES it is
//     not read (the listing's error) and what it kept is dropped;
//   - line: one line with no newline, appended to 1 MB at a time up to the limit and past it, the
//     meter updated after each: the time of an update near the end against one near the start (a
//     re-join at every update would grow with the line), and the bytes the follower touched per
//     byte appended.
// The baseline of each ratio is measured in the same process: one plain read of the same bytes.

import { appendFileSync, closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FoundSession } from '../../src/sessions/agentSession';
import { SESSION_MAX_BYTES } from '../../src/sessions/diskReads';
import { LiveSessionMeter } from '../../src/sessions/liveSessionMeter';
import { SessionCatalog } from '../../src/sessions/sessionCatalog';
import { runChild } from '../lib/child';
import { findTranscriptsDir, listTranscripts } from '../lib/corpus';
import { collectGarbage, formatMs, formatRatio, median } from '../lib/measure';
import { writeRepeated } from '../lib/scaleInputs';
import type { BenchGoal, BenchSection } from '../lib/section';

const SECTION = 'limits';
const MB = 1024 * 1024;
/** The session followed grows to this. */
const GROW_TO = 200 * MB;
const GROW_STEP = 8 * MB;
/** The line with no newline grows by this much per update, to past the limit. */
const LINE_STEP = MB;
const LINE_TO = SESSION_MAX_BYTES + 16 * MB;
/** What the review measured before the limit, for the goals. */
const REVIEW = { growRss: 561 * MB };
const CHILD_TIMEOUT_MS = 15 * 60 * 1000;

const mb = (n: number) => `${(n / MB).toFixed(0)} MB`;

interface Step {
  fileBytes: number;
  ms: number;
  rss: number;
  error?: string;
  touched: number;
}

interface Figures {
  steps: Step[];
  peakRss: number;
  rssBefore: number;
  rssAfter: number;
  /** The JS heap in use after the last update, garbage collected: what is still kept. */
  heapBefore: number;
  heapAfter: number;
  /** One plain read of SESSION_MAX_BYTES of the file, for scale. */
  plainReadMs: number;
}

function found(file: string, format?: 'claude-code'): FoundSession {
  return { agent: 'claude-code', id: 'bench', file, size: 0, mtimeMs: 0, ...(format ? { format } : {}) };
}

function plainRead(file: string, bytes: number): number {
  const t0 = performance.now();
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    readSync(fd, buf, 0, bytes, 0);
  } finally {
    closeSync(fd);
  }
  return performance.now() - t0;
}

/** In a fresh process: the session SOURCE (200 MB, whole lines) appended to FILE in steps. */
async function growChild([source, file]: string[]): Promise<Figures> {
  collectGarbage();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const meter = new LiveSessionMeter(found(file!, 'claude-code'), new SessionCatalog().counterFor);
  const fd = openSync(source!, 'r');
  const steps: Step[] = [];
  let at = 0;
  let carry = Buffer.alloc(0);
  writeFileSync(file!, '');
  try {
    for (;;) {
      const buf = Buffer.alloc(GROW_STEP);
      const n = readSync(fd, buf, 0, GROW_STEP, at);
      if (n === 0) break;
      at += n;
      // Whole lines only, as an agent appends them.
      const data = Buffer.concat([carry, buf.subarray(0, n)]);
      const cut = data.lastIndexOf(0x0a) + 1;
      appendFileSync(file!, data.subarray(0, cut));
      carry = Buffer.from(data.subarray(cut));
      const t0 = performance.now();
      const u = await meter.update();
      const ms = performance.now() - t0;
      steps.push({
        fileBytes: statSync(file!).size,
        ms,
        rss: process.memoryUsage().rss,
        touched: meter.bytesTouched,
        ...(u.session.error ? { error: u.session.error } : {}),
      });
    }
  } finally {
    closeSync(fd);
  }
  collectGarbage();
  return {
    steps,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
    rssAfter: process.memoryUsage().rss,
    heapBefore,
    heapAfter: process.memoryUsage().heapUsed,
    plainReadMs: plainRead(file!, SESSION_MAX_BYTES),
  };
}

/** In a fresh process: one line with no newline growing in FILE. */
async function lineChild([file]: string[]): Promise<Figures> {
  collectGarbage();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  writeFileSync(file!, '{"type":"user","message":{"role":"user","content":"start"}}\n{"pad":"');
  const meter = new LiveSessionMeter(found(file!), new SessionCatalog().counterFor);
  await meter.update();
  const piece = Buffer.alloc(LINE_STEP, 'x');
  const steps: Step[] = [];
  for (let size = statSync(file!).size; size < LINE_TO; size += LINE_STEP) {
    appendFileSync(file!, piece);
    const t0 = performance.now();
    const u = await meter.update();
    const ms = performance.now() - t0;
    steps.push({
      fileBytes: statSync(file!).size,
      ms,
      rss: process.memoryUsage().rss,
      touched: meter.bytesTouched,
      ...(u.session.error ? { error: u.session.error } : {}),
    });
  }
  collectGarbage();
  return {
    steps,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
    rssAfter: process.memoryUsage().rss,
    heapBefore,
    heapAfter: process.memoryUsage().heapUsed,
    plainReadMs: plainRead(file!, SESSION_MAX_BYTES),
  };
}

export const child = { grow: growChild, line: lineChild };

export async function run(): Promise<BenchSection> {
  const dir = findTranscriptsDir();
  const tmp = mkdtempSync(join(tmpdir(), 'ctxc-bench-limits-'));
  try {
    const claude = listTranscripts(dir)
      .filter((f) => f.startsWith('claude-code/'))
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    const source = join(tmp, 'source.jsonl');
    writeRepeated(claude, source, { minBytes: GROW_TO });
    const goals: BenchGoal[] = [];

    const g = runChild<Figures>(SECTION, 'grow', [source, join(tmp, 'live.jsonl')], CHILD_TIMEOUT_MS);
    const within = g.steps.filter((s) => !s.error);
    const past = g.steps.filter((s) => s.error);
    const lastWithin = within.at(-1);
    const growRows = [
      {
        label: `peak RSS, following to ${mb(g.steps.at(-1)?.fileBytes ?? 0)}`,
        median: mb(g.peakRss),
        ratio: `${formatRatio(g.peakRss / SESSION_MAX_BYTES)} the limit`,
        note: `the idle process ${mb(g.rssBefore)}; JS heap in use ${mb(g.heapBefore)} before, ${mb(g.heapAfter)} after the last update (garbage collected)`,
      },
      {
        label: `update within the limit (${within.length} steps of ${mb(GROW_STEP)})`,
        median: formatMs(median(within.map((s) => s.ms))),
        ...(lastWithin ? { ratio: `${formatRatio(lastWithin.ms / g.plainReadMs)} one plain read of ${mb(SESSION_MAX_BYTES)} (last step)` } : {}),
        note: `read, import and count of the appended lines; last at ${mb(lastWithin?.fileBytes ?? 0)}: ${formatMs(lastWithin?.ms ?? NaN)}`,
      },
      {
        label: `update past the limit (${past.length} steps)`,
        median: formatMs(median(past.map((s) => s.ms))),
        note: `not read: "${past[0]?.error ?? 'none'}"; bytes read in all ${mb(g.steps.at(-1)?.touched ?? 0)}`,
      },
    ];
    goals.push({
      goal: `following a session to ${mb(GROW_TO)} peaks below the ${mb(REVIEW.growRss)} the review measured`,
      met: g.peakRss < REVIEW.growRss,
      measured: `${mb(g.peakRss)}; nothing read past ${mb(SESSION_MAX_BYTES)}: ${past.length > 0 && past.every((s) => s.touched === past[0]!.touched) ? 'yes' : 'NO'}`,
    });

    const l = runChild<Figures>(SECTION, 'line', [join(tmp, 'line.jsonl')], CHILD_TIMEOUT_MS);
    const lineWithin = l.steps.filter((s) => !s.error);
    const quarter = Math.max(1, Math.floor(lineWithin.length / 4));
    const early = median(lineWithin.slice(0, quarter).map((s) => s.ms));
    const late = median(lineWithin.slice(-quarter).map((s) => s.ms));
    const appended = (lineWithin.at(-1)?.fileBytes ?? 0) - (l.steps[0]?.fileBytes ?? 0) + LINE_STEP;
    const touched = lineWithin.at(-1)?.touched ?? 0;
    const linePast = l.steps.filter((s) => s.error);
    const lineRows = [
      {
        label: `update, first quarter of the line (to ${mb(lineWithin[quarter - 1]?.fileBytes ?? 0)})`,
        median: formatMs(early),
        note: `median of ${quarter}`,
      },
      {
        label: `update, last quarter (to ${mb(lineWithin.at(-1)?.fileBytes ?? 0)})`,
        median: formatMs(late),
        ratio: `${formatRatio(late / early)} the first quarter`,
        note: `median of ${quarter}; 1× is linear in what was appended (a re-join at each update grows with the line)`,
      },
      {
        label: 'bytes touched per byte appended',
        median: formatRatio(touched / appended),
        note: `${mb(touched)} read or copied for ${mb(appended)} appended (read once, kept once)`,
      },
      {
        label: `update past the limit (${linePast.length} steps)`,
        median: formatMs(median(linePast.map((s) => s.ms))),
        note: `what was kept dropped; peak RSS ${mb(l.peakRss)}; JS heap in use ${mb(l.heapBefore)} before, ${mb(l.heapAfter)} after`,
      },
    ];
    goals.push({
      goal: 'a line with no newline costs each update what was appended (last quarter ≤ 2× the first)',
      met: late <= 2 * early,
      measured: `${formatMs(early)} → ${formatMs(late)} (${formatRatio(late / early)}); ${formatRatio(touched / appended)} bytes touched per byte appended`,
    });

    return {
      title: 'limits (following a live session that is huge or has no line ends)',
      groups: [
        { title: `a Claude Code session growing to ${mb(GROW_TO)} in ${mb(GROW_STEP)} appends; limit ${mb(SESSION_MAX_BYTES)}`, rows: growRows },
        { title: `one line with no newline, ${mb(LINE_STEP)} per append, to ${mb(LINE_TO)}`, rows: lineRows },
      ],
      goals,
      notes: [`each case in its own process; the session is ${claude.split('/').pop()} repeated with fresh uuids (${mb(statSync(source).size)})`],
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
