// Inspector webview speed: the real bundle (dist/webview.js) in headless Chromium, inside the
// page the panel host renders (test/webview/harness.ts), fed the real engine's compaction.
//
// Measured from the moment the page receives the model (performance marks the webview sets
// itself): first render (header, cards and the first rows painted), timeline complete (every
// row in the DOM) and the diff (first block painted, every block computed and rendered). Each
// repetition is a fresh page, as a newly opened panel is. Baselines from the same run and the
// same browser: JSON.parse of the model's JSON (the least any webview must do with it) and
// building the same number of plain text rows (four text cells each) until painted.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Conversation } from '../../src/engine/conversation/model';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { InspectorModel } from '../../src/shared/protocol';
import { engineFixtureFor, longConversation } from '../../test/webview/compactionFixture';
import { ensureWebviewBundle, launchBrowser, openHarness } from '../../test/webview/harness';
import { findTranscriptsDir, listTranscripts } from '../lib/corpus';
import { formatCount, formatMs, formatRatio, median } from '../lib/measure';
import type { BenchGoal, BenchGroup, BenchSection } from '../lib/section';

/** The conversation size the first-render goal is stated for. */
const LONG_MESSAGES = 5000;
/** The goal: first render of 5,000 messages within this, from receipt to painted rows. */
const FIRST_RENDER_GOAL_MS = 300;
/** Fresh pages per configuration; the median is reported. */
const REPS = 5;
/** Baseline repetitions inside one page (cheap, so more of them). */
const BASELINE_REPS = 7;
/** Characters of message text in a baseline row, as the timeline's preview cell holds. */
const PLAIN_ROW_CHARS = 240;
/** How long one rendering may take before the bench gives up on it (a hang, not a figure). */
const RENDER_TIMEOUT_MS = 120_000;

interface RenderTimes {
  firstRender: number;
  timelineComplete: number;
  diffFirstPaint: number;
  diff: number;
}

const MEASURES = ['inspector:first-render', 'inspector:timeline-complete', 'inspector:diff-first-paint', 'inspector:diff'] as const;

/** One fresh page: send the model, wait until every measure exists, read them. */
async function renderOnce(browser: Browser, model: InspectorModel): Promise<RenderTimes> {
  const h = await openHarness(browser, { theme: 'dark' });
  try {
    await h.send({ type: 'init', model });
    await h.page.waitForFunction((names) => names.every((n) => performance.getEntriesByName(n, 'measure').length > 0), [...MEASURES], {
      timeout: RENDER_TIMEOUT_MS,
      polling: 50,
    });
    const rows = await h.page.locator('[role="row"]').count();
    if (rows !== model.messages.length) throw new Error(`webview bench: ${rows} rows for ${model.messages.length} messages`);
    if (h.errors.length) throw new Error(`webview bench: the page reported errors: ${h.errors.slice(0, 3).join(' | ')}`);
    const [firstRender, timelineComplete, diffFirstPaint, diff] = await h.page.evaluate(
      (names) => names.map((n) => performance.getEntriesByName(n, 'measure')[0]!.duration),
      [...MEASURES],
    );
    return { firstRender: firstRender!, timelineComplete: timelineComplete!, diffFirstPaint: diffFirstPaint!, diff: diff! };
  } finally {
    await h.close();
  }
}

interface Baselines {
  jsonParse: number;
  plainRows: number;
}

/** In one page: JSON.parse of the model and plain rows built and painted, medians. */
async function baselines(page: Page, model: InspectorModel): Promise<Baselines> {
  const json = JSON.stringify(model);
  const rows = model.messages.map((m) => [String(m.index), m.role, String(m.tokens), m.text.slice(0, PLAIN_ROW_CHARS)]);
  return page.evaluate(
    async ({ json, rows, reps }) => {
      const med = (xs: number[]) => {
        const s = [...xs].sort((a, b) => a - b);
        const mid = s.length >> 1;
        return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
      };
      const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const parse: number[] = [];
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        JSON.parse(json);
        parse.push(performance.now() - t0);
      }
      const plain: number[] = [];
      for (let i = 0; i < reps; i++) {
        document.body.replaceChildren();
        await painted();
        const t0 = performance.now();
        const list = document.createElement('div');
        for (const cells of rows) {
          const row = document.createElement('div');
          for (const c of cells) {
            const span = document.createElement('span');
            span.textContent = c;
            row.appendChild(span);
          }
          list.appendChild(row);
        }
        document.body.appendChild(list);
        await painted();
        plain.push(performance.now() - t0);
      }
      return { jsonParse: med(parse), plainRows: med(plain) };
    },
    { json, rows, reps: BASELINE_REPS },
  );
}

function medians(runs: RenderTimes[]): RenderTimes {
  return {
    firstRender: median(runs.map((r) => r.firstRender)),
    timelineComplete: median(runs.map((r) => r.timelineComplete)),
    diffFirstPaint: median(runs.map((r) => r.diffFirstPaint)),
    diff: median(runs.map((r) => r.diff)),
  };
}

function group(title: string, t: RenderTimes, b: Baselines, n: number): BenchGroup {
  const vsRows = (ms: number) => `${formatRatio(ms / b.plainRows)} plain rows`;
  return {
    title,
    rows: [
      { label: 'JSON.parse of the model (baseline)', median: formatMs(b.jsonParse), note: `${BASELINE_REPS} runs in one page` },
      { label: `${formatCount(n)} plain text rows, painted (baseline)`, median: formatMs(b.plainRows), note: `4 text cells per row, ${BASELINE_REPS} runs` },
      {
        label: 'first render (header, cards, first rows painted)',
        median: formatMs(t.firstRender),
        ratio: vsRows(t.firstRender),
        note: `${formatRatio(t.firstRender / b.jsonParse)} JSON.parse; ${REPS} fresh pages`,
      },
      {
        label: 'timeline complete (every row in the DOM)',
        median: formatMs(t.timelineComplete),
        ratio: vsRows(t.timelineComplete),
        note: 'rows built in 8 ms slices after the first paint',
      },
      { label: 'diff, first block painted', median: formatMs(t.diffFirstPaint), note: 'the diff starts after the first render' },
      {
        label: 'diff, whole conversation computed and rendered',
        median: formatMs(t.diff),
        ratio: vsRows(t.diff),
        note: 'jsdiff line diffs in slices on the UI thread',
      },
    ],
  };
}

/** The largest shared transcript that imports, by file size. */
function largestTranscript(dir: string): { path: string; conv: Conversation; bytes: number } {
  const files = listTranscripts(dir)
    .map((f) => ({ path: join(dir, f), bytes: statSync(join(dir, f)).size }))
    .sort((a, b) => b.bytes - a.bytes);
  for (const f of files) {
    try {
      const conv = importTranscript(readFileSync(f.path, 'utf8'), { sourcePath: f.path, wholeFile: true }).conversation;
      if (conv.messages.length > 0) return { ...f, conv };
    } catch {
      // not a conversation the importers read; the next largest
    }
  }
  throw new Error(`webview bench: no transcript in ${dir} imports`);
}

export async function run(): Promise<BenchSection> {
  ensureWebviewBundle();
  const dir = findTranscriptsDir();
  const largest = largestTranscript(dir);
  const sources = listTranscripts(dir)
    .filter((f) => /\.(jsonl|traj\.json)$/.test(f))
    .slice(0, 12)
    .flatMap((f) => {
      try {
        return [importTranscript(readFileSync(join(dir, f), 'utf8'), { sourcePath: join(dir, f), wholeFile: true }).conversation];
      } catch {
        return [];
      }
    });
  const long = longConversation(LONG_MESSAGES, sources);
  const largeFx = await engineFixtureFor(largest.conv);
  const longFx = await engineFixtureFor(long);

  const browser = await launchBrowser();
  try {
    const base = await openHarness(browser);
    const longBase = await baselines(base.page, longFx.model);
    const largeBase = await baselines(base.page, largeFx.model);
    await base.close();
    const longRuns: RenderTimes[] = [];
    const largeRuns: RenderTimes[] = [];
    // Warm-up: the first page pays for starting the renderer process.
    await renderOnce(browser, largeFx.model);
    for (let i = 0; i < REPS; i++) {
      longRuns.push(await renderOnce(browser, longFx.model));
      largeRuns.push(await renderOnce(browser, largeFx.model));
    }
    const longT = medians(longRuns);
    const largeT = medians(largeRuns);
    const name = largest.path.slice(dir.length + 1);
    const goals: BenchGoal[] = [
      {
        goal: `first render of ${formatCount(LONG_MESSAGES)} messages ≤ ${formatMs(FIRST_RENDER_GOAL_MS)} (receipt to painted rows)`,
        met: longT.firstRender <= FIRST_RENDER_GOAL_MS,
        measured: `${formatMs(longT.firstRender)} median of ${REPS}; every row in ${formatMs(longT.timelineComplete)}`,
      },
    ];
    return {
      title: 'inspector webview (headless Chromium, real bundle and CSP)',
      groups: [
        group(
          `${formatCount(long.messages.length)} real messages (shared transcripts repeated), ${formatCount(longFx.model.after.length)} after compaction`,
          longT,
          longBase,
          long.messages.length,
        ),
        group(
          `largest shared transcript: ${name} (${(largest.bytes / 1e6).toFixed(2)} MB, ${formatCount(largest.conv.messages.length)} messages)`,
          largeT,
          largeBase,
          largest.conv.messages.length,
        ),
      ],
      goals,
      notes: [
        `models from the real engine (compactConversation, defaults, extractive summarizer): ${formatCount(longFx.result.tokensBefore)} → ${formatCount(longFx.result.tokensAfter)} and ${formatCount(largeFx.result.tokensBefore)} → ${formatCount(largeFx.result.tokensAfter)} tokens`,
        `model JSON: ${(JSON.stringify(longFx.model).length / 1e6).toFixed(1)} MB and ${(JSON.stringify(largeFx.model).length / 1e6).toFixed(1)} MB; times start at the page's receipt of the model (transfer excluded)`,
        'chromium --headless --disable-gpu: software paint, so absolute figures are pessimistic next to a VS Code window',
      ],
    };
  } finally {
    await browser.close();
  }
}
