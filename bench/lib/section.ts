// What a benchmark section returns and how the driver prints it. A section measures its
// subject and its baselines in the same run and reports medians and ratios as rows.

export interface BenchRow {
  /** What was measured, e.g. "ours, cold memo". */
  label: string;
  /** The median, formatted with its unit ("12.4 MB/s", "0.081 ms"). */
  median: string;
  /** A ratio against a baseline from the same run, e.g. "2.31× gpt-tokenizer". */
  ratio?: string;
  /** Anything needed to read the row right (repetitions, spread, what is included). */
  note?: string;
}

export interface BenchGoal {
  /** The goal as the issue states it, e.g. "throughput ≥ 1.0× gpt-tokenizer". */
  goal: string;
  met: boolean;
  /** The measured figure behind the verdict. */
  measured: string;
}

export interface BenchGroup {
  title: string;
  rows: BenchRow[];
}

export interface BenchSection {
  title: string;
  groups: BenchGroup[];
  goals?: BenchGoal[];
  /** Facts about the run: corpus size, identity checks, versions. */
  notes?: string[];
}

/** A section module: bench/sections/<name>.ts. `child` tasks run in a fresh process
 *  (bench/lib/child.ts), for measurements such as cold start that one process can make once. */
export interface BenchSectionModule {
  run(): Promise<BenchSection>;
  child?: Record<string, (args: string[]) => Promise<unknown>>;
}

function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - [...s].length));
}

export function renderSection(section: BenchSection): string {
  const lines: string[] = [`== ${section.title} ==`];
  const all = section.groups.flatMap((g) => g.rows);
  const w = {
    label: Math.max(10, ...all.map((r) => [...r.label].length)),
    median: Math.max(6, ...all.map((r) => r.median.length)),
    ratio: Math.max(5, ...all.map((r) => (r.ratio ?? '').length)),
  };
  for (const g of section.groups) {
    lines.push('', g.title);
    lines.push(`  ${pad('', w.label)}  ${pad('median', w.median)}  ${pad('ratio', w.ratio)}  note`);
    for (const r of g.rows) {
      lines.push(`  ${pad(r.label, w.label)}  ${pad(r.median, w.median)}  ${pad(r.ratio ?? '', w.ratio)}  ${r.note ?? ''}`.trimEnd());
    }
  }
  if (section.goals?.length) {
    lines.push('', 'goals');
    for (const g of section.goals) lines.push(`  ${g.met ? 'met    ' : 'NOT MET'}  ${g.goal}: ${g.measured}`);
  }
  if (section.notes?.length) {
    lines.push('');
    for (const n of section.notes) lines.push(`  ${n}`);
  }
  return lines.join('\n');
}
