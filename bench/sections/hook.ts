// The Claude Code hook (`ctxc hook claude-code`) on a long session: Claude Code starts it for every
// event and waits for it before the person can go on, so each event is timed as Claude Code sees
// it — a fresh `node dist/cli.js hook claude-code` process, its input on stdin — with its peak RSS.
//
// The session: the largest shared Claude Code session repeated to 60 MB (fresh uuids, one chain),
// with an automatic compaction (boundary, attachments, summary, as Claude Code writes them) every
// COMPACT_EVERY copies. Each repetition plays one automatic compaction from a fresh state folder:
// PreCompact, SessionStart (the summary not written yet), Claude Code's lines for it appended,
// then the next prompt's UserPromptSubmit (the repair checked against the summary) and one more
// (nothing pending, the common case); the file is cut back to its size afterwards. The baseline
// is a bare `node -e 0` started the same way in the same repetition; the whole CLI bundle's own
// start (`node dist/ctxc.js --version`) is shown beside the hook's. For scale, one more row: the
// first compaction of an equally long session with no compaction in it (its era cut to the last
// ERA_MAX_BYTES), which no goal covers.

import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findTranscriptsDir, listTranscripts } from '../lib/corpus';
import { formatMs, formatRatio, median } from '../lib/measure';
import { claudeCompactionLines, lastChainUuid, writeRepeated } from '../lib/scaleInputs';
import type { BenchGoal, BenchRow, BenchSection } from '../lib/section';
import { ERA_MAX_BYTES } from '../../src/sessions/claudeHook/eraFacts';

const SESSION_BYTES = 60 * 1000 * 1000;
/** Copies of the shared session between two automatic compactions (an era of a few MB). */
const COMPACT_EVERY = 3;
const REPS = 5;
const GOAL_MS = 1000;
const GOAL_RSS_MB = 200;
/** What the preload prints at exit: the process's peak RSS in kilobytes. */
const RSS_MARK = 'CTXC_BENCH_MAXRSS=';

interface Run {
  ms: number;
  rssMb: number;
  stdout: string;
}

const EVENTS = ['PreCompact', 'SessionStart', 'UserPromptSubmit (repair)', 'UserPromptSubmit (nothing pending)'] as const;
type Event = (typeof EVENTS)[number];

/** dist/ beside the running bench bundle (dist/bench/speed.js). */
function distDir(): string {
  return dirname(dirname(process.argv[1]!));
}

function timed(args: string[], preload: string, input = ''): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', preload, ...args], { input, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 120_000 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  const kb = Number(new RegExp(`${RSS_MARK}(\\d+)`).exec(r.stderr)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`${args.join(' ')}: no peak RSS reported`);
  return { ms, rssMb: kb / 1024, stdout: r.stdout };
}

const mb = (x: number) => `${x.toFixed(0)} MB`;

export async function run(): Promise<BenchSection> {
  const dir = findTranscriptsDir();
  const claude = listTranscripts(dir)
    .filter((f) => f.startsWith('claude-code/'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const tmp = mkdtempSync(join(tmpdir(), 'ctxc-bench-hook-'));
  try {
    const cli = join(distDir(), 'cli.js');
    const ctxc = join(distDir(), 'ctxc.js');
    const preload = join(tmp, 'maxrss.cjs');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeSync(2, '\\n${RSS_MARK}' + process.resourceUsage().maxRSS + '\\n'));\n`);
    const session = join(tmp, 'session.jsonl');
    const made = writeRepeated(claude, session, { minBytes: SESSION_BYTES, compactEvery: COMPACT_EVERY });
    const size = statSync(session).size;
    const last = lastChainUuid(session);

    const runs: Record<Event | 'node -e 0' | 'ctxc --version', Run[]> = {
      'node -e 0': [],
      'ctxc --version': [],
      PreCompact: [],
      SessionStart: [],
      'UserPromptSubmit (repair)': [],
      'UserPromptSubmit (nothing pending)': [],
    };
    let restored = 0;
    for (let rep = 0; rep < REPS; rep++) {
      const state = join(tmp, `state-${rep}`);
      const hook = (event: string, extra: Record<string, unknown> = {}) =>
        timed(
          [cli, 'hook', 'claude-code', '--state-dir', state],
          preload,
          JSON.stringify({ session_id: 'bench', transcript_path: session, cwd: tmp, hook_event_name: event, ...extra }),
        );
      runs['node -e 0'].push(timed(['-e', '0'], preload));
      runs['ctxc --version'].push(timed([ctxc, '--version'], preload));
      try {
        runs.PreCompact.push(hook('PreCompact', { trigger: 'auto' }));
        const start = hook('SessionStart', { source: 'compact' });
        runs.SessionStart.push(start);
        restored = (JSON.parse(start.stdout || '{}') as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext?.length
          ? 1
          : 0;
        // What Claude Code writes after the hook: the boundary, the attachments, the summary.
        appendFileSync(session, claudeCompactionLines(last, 1000 + rep).text);
        runs['UserPromptSubmit (repair)'].push(hook('UserPromptSubmit', { prompt: 'go on' }));
        runs['UserPromptSubmit (nothing pending)'].push(hook('UserPromptSubmit', { prompt: 'more' }));
      } finally {
        truncateSync(session, size);
        rmSync(state, { recursive: true, force: true });
      }
    }

    // For scale, not a goal: the first compaction of a session as long with none before it (the hook
    // installed late). The era is cut to its last ERA_MAX_BYTES.
    const plain = join(tmp, 'plain.jsonl');
    writeRepeated(claude, plain, { minBytes: SESSION_BYTES });
    const firstRuns: Run[] = [];
    for (let rep = 0; rep < 3; rep++) {
      const state = join(tmp, `plain-state-${rep}`);
      const input = (event: string, extra: Record<string, unknown>) =>
        JSON.stringify({ session_id: 'bench', transcript_path: plain, cwd: tmp, hook_event_name: event, ...extra });
      timed([cli, 'hook', 'claude-code', '--state-dir', state], preload, input('PreCompact', { trigger: 'auto' }));
      firstRuns.push(timed([cli, 'hook', 'claude-code', '--state-dir', state], preload, input('SessionStart', { source: 'compact' })));
      rmSync(state, { recursive: true, force: true });
    }
    rmSync(plain, { force: true });

    const base = median(runs['node -e 0'].map((r) => r.ms));
    const baseRss = median(runs['node -e 0'].map((r) => r.rssMb));
    const row = (label: string, rs: Run[], note: string): BenchRow => {
      const t = median(rs.map((r) => r.ms));
      return {
        label,
        median: formatMs(t),
        ratio: `${formatRatio(t / base)} node -e 0`,
        note: `${rs.length} runs, min ${formatMs(Math.min(...rs.map((r) => r.ms)))}; peak RSS ${mb(median(rs.map((r) => r.rssMb)))}${note ? `; ${note}` : ''}`,
      };
    };
    const goals: BenchGoal[] = [];
    for (const e of EVENTS) {
      const t = median(runs[e].map((r) => r.ms));
      const rss = Math.max(...runs[e].map((r) => r.rssMb));
      goals.push({ goal: `${e} ≤ ${formatMs(GOAL_MS)}`, met: t <= GOAL_MS, measured: `${formatMs(t)} (median of ${runs[e].length})` });
      goals.push({ goal: `${e} ≤ ${GOAL_RSS_MB} MB`, met: rss <= GOAL_RSS_MB, measured: `${mb(rss)} peak RSS (the largest of ${runs[e].length})` });
    }
    return {
      title: 'hook: ctxc hook claude-code on a 60 MB Claude Code session, one process per event',
      groups: [
        {
          title: 'start-up',
          rows: [
            {
              label: 'node -e 0 (baseline)',
              median: formatMs(base),
              note: `${REPS} runs, min ${formatMs(Math.min(...runs['node -e 0'].map((r) => r.ms)))}; peak RSS ${mb(baseRss)}`,
            },
            row('ctxc --version (the whole CLI bundle, dist/ctxc.js)', runs['ctxc --version'], ''),
          ],
        },
        {
          title: `an automatic compaction, event by event (${mb(size / 1e6)} file, ${made.compactions} compactions before it)`,
          rows: [
            row('PreCompact', runs.PreCompact, 'the recorded usage read from the end back to the last boundary; the loop guard'),
            row(
              'SessionStart (source compact)',
              runs.SessionStart,
              `the era since the last boundary read, its facts kept, put back unchecked${restored ? '' : ' (nothing put back!)'}`,
            ),
            row('UserPromptSubmit, repair pending', runs['UserPromptSubmit (repair)'], 'the summary read after the offset kept, the facts from the state'),
            row('UserPromptSubmit, nothing pending', runs['UserPromptSubmit (nothing pending)'], 'one small state file read: the cost of every prompt'),
          ],
        },
        {
          title: 'for scale, not a goal: the first compaction of a 60 MB session with no compaction before it',
          rows: [row('SessionStart (source compact)', firstRuns, `the era cut to its last ${ERA_MAX_BYTES / 1024 / 1024} MB`)],
        },
      ],
      goals,
      notes: [
        `session: ${claude.split('/').pop()} repeated ${made.copies}× to ${mb(size / 1e6)} (fresh uuids, one chain), an automatic compaction every ${COMPACT_EVERY} copies`,
        'each event is a fresh `node dist/cli.js hook claude-code` process with its input on stdin, as Claude Code runs it; peak RSS from process.resourceUsage() at exit',
      ],
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
