// What bench:quality checks in every output besides retention, with its own readings of the text
// (never the engine's parser), so a broken contract shows:
//
//   headings      the summary has all eight "## " headings
//   rules cut     a standing rule of the person's (rawFacts: rules) appears in part: its opening is
//                 there and the rest of the sentence is not
//   ledger        the ledger lines (Rule / Plan with a status) of a summary, to follow across
//                 chained compactions
//   untrue        claims the list of the issue names: a pointer to an archive no run wrote (the
//                 bench keeps none), another session's title read as an earlier summary, "Errors
//                 and fixes: (none)" when the person declined a tool call

const HEADINGS = [
  'Primary Request and Intent',
  'Key Technical Concepts',
  'Files and Code Sections',
  'Errors and fixes',
  'Problem Solving',
  'All user messages',
  'Pending Tasks',
  'Current Work',
];

/** The summary in an exported Markdown output: what follows its title line, to its metadata. */
export function summaryOf(markdown: string): string | undefined {
  const at = markdown.indexOf('# Compacted conversation summary');
  if (at < 0) return undefined;
  const end = markdown.indexOf('## Compression Metadata', at);
  return markdown.slice(at, end < 0 ? undefined : end);
}

/** Whether the summary has every one of the eight headings, each on a line of its own. */
export function hasAllHeadings(summary: string): boolean {
  const lines = new Set(summary.split('\n').map((l) => l.trim()));
  return HEADINGS.every((h) => lines.has(`## ${h}`));
}

const flat = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();

/** How many times a rule appears cut in the output: its opening without the rest. */
export function cutRules(rules: readonly string[], markdown: string): { cut: number; examples: string[] } {
  const text = flat(markdown);
  let cut = 0;
  const examples: string[] = [];
  for (const rule of rules) {
    const whole = flat(rule);
    const head = whole.slice(0, 40);
    for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1)) {
      if (text.startsWith(whole, at)) continue;
      cut++;
      if (examples.length < 3) examples.push(text.slice(at, at + 90));
    }
  }
  return { cut, examples };
}

export interface LedgerLine {
  kind: string;
  status: string;
  where: string;
  text: string;
}

const LEDGER_LINE = /^\s+- (Rule|Decision|Plan)(?: \[([a-z]+)\])? \(([^)\n]*)\): (.*)$/gm;

/** The ledger lines of a summary. */
export function ledgerLinesOf(summary: string): LedgerLine[] {
  const start = summary.indexOf('- Ledger (');
  if (start < 0) return [];
  const out: LedgerLine[] = [];
  for (const m of summary.slice(start).matchAll(LEDGER_LINE)) out.push({ kind: m[1]!, status: m[2] ?? '', where: m[3]!, text: m[4]! });
  return out;
}

/** Of the rules and plans of `first`, how many `last` still carries: the same line, or — for a
 *  plan whose status new evidence changed — the same words with the status and where it was set
 *  changed together, never a closed plan (done, cancelled) open again. */
export function ledgerKept(first: readonly LedgerLine[], last: readonly LedgerLine[]): { rules: [number, number]; plans: [number, number] } {
  const rules: [number, number] = [0, 0];
  const plans: [number, number] = [0, 0];
  for (const e of first) {
    if (e.kind === 'Decision') continue;
    const tally = e.kind === 'Rule' ? rules : plans;
    tally[1]++;
    const later = last.find((x) => x.kind === e.kind && x.text === e.text);
    if (!later) continue;
    const same = later.status === e.status && later.where === e.where;
    const updated = later.status !== e.status && later.where !== e.where && !((e.status === 'done' || e.status === 'cancelled') && later.status === 'open');
    if (same || updated) tally[0]++;
  }
  return { rules, plans };
}

/** Untrue claims of the list found in one output. */
export function untrueClaims(markdown: string, opts: { otherSessionTitles: boolean; declined: boolean }): string[] {
  const out: string[] = [];
  if (/in this compaction's archive|the archive has them|archive keeps the original/.test(markdown)) out.push('points to an archive no run wrote');
  if (opts.otherSessionTitles && /Earlier summary:|compacted \d+ times/.test(markdown)) out.push("another session's title read as a compaction");
  const summary = summaryOf(markdown);
  // A declined call kept verbatim after the summary speaks for itself.
  const keptVerbatim = /doesn't want to proceed with this tool use|denied this operation|rejected by user/.test(
    summary ? markdown.replace(summary, '') : markdown,
  );
  if (opts.declined && summary && !keptVerbatim && /## Errors and fixes\n- \(none\)/.test(summary))
    out.push('"Errors and fixes: (none)" after a declined tool call');
  return out;
}
