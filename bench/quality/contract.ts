// The summary contract bench:quality prints after retention: per format and overall, on the
// first strategy's outputs (at the ratio, and at the emergency level) and on three chained
// compactions (chains.ts) — all eight headings in every summary; the user requests and files of
// the chain's first result still in its third; no standing rule cut; the ledger's rules and plan
// statuses carried; no untrue claim of the list (summaryChecks.ts).

import type { ExpectedFacts } from './rawFacts';
import { indexOutput, scoreFacts } from './retention';
import { cutRules, hasAllHeadings, ledgerKept, ledgerLinesOf, summaryOf, untrueClaims } from './summaryChecks';

export interface ContractRun {
  facts: ExpectedFacts;
  /** The first strategy's outputs (exported Markdown): at the ratio, then the emergency runs. */
  outputs: string[];
  /** The chain's outputs, first to last, when the conversation has enough requests to cut. */
  chain: string[] | undefined;
  /** The raw file: a tool call the person declined; titles of other sessions. */
  declined: boolean;
  otherSessionTitles: boolean;
}

export interface ContractTally {
  summaries: number;
  headed: number;
  /** User requests and files the chain's first result holds, and of those the third. */
  firstKept: number;
  thirdKept: number;
  rulesCut: number;
  cutExamples: string[];
  ledgerRules: [number, number];
  ledgerPlans: [number, number];
  untrue: string[];
}

export function tally(runs: readonly ContractRun[]): ContractTally {
  const t: ContractTally = {
    summaries: 0,
    headed: 0,
    firstKept: 0,
    thirdKept: 0,
    rulesCut: 0,
    cutExamples: [],
    ledgerRules: [0, 0],
    ledgerPlans: [0, 0],
    untrue: [],
  };
  for (const r of runs) {
    const all = [...r.outputs, ...(r.chain ?? [])];
    // The chain's earlier results cover only the first parts: a declined call may come later.
    const whole = new Set([...r.outputs, ...(r.chain ? [r.chain[r.chain.length - 1]!] : [])]);
    for (const md of all) {
      const s = summaryOf(md);
      if (s) {
        t.summaries++;
        if (hasAllHeadings(s)) t.headed++;
      }
      const c = cutRules(r.facts.rules, md);
      t.rulesCut += c.cut;
      t.cutExamples.push(...c.examples.map((e) => `${r.facts.name}: ${e}`));
      t.untrue.push(...untrueClaims(md, { ...r, declined: r.declined && whole.has(md) }).map((u) => `${r.facts.name}: ${u}`));
    }
    if (r.chain && r.chain.length >= 3) {
      const first = scoreFacts(r.facts, indexOutput(r.chain[0]!));
      const last = indexOutput(r.chain[r.chain.length - 1]!);
      const keptFirst = [...first.userRequests.lost, ...first.files.lost];
      const kept = {
        ...r.facts,
        userRequests: r.facts.userRequests.filter((f) => !keptFirst.includes(f)),
        files: r.facts.files.filter((f) => !keptFirst.includes(f)),
      };
      const third = scoreFacts(kept, last);
      t.firstKept += kept.userRequests.length + kept.files.length;
      t.thirdKept += third.userRequests.retained + third.files.retained;
      const l = ledgerKept(ledgerLinesOf(summaryOf(r.chain[0]!) ?? ''), ledgerLinesOf(summaryOf(r.chain[r.chain.length - 1]!) ?? ''));
      t.ledgerRules = [t.ledgerRules[0] + l.rules[0], t.ledgerRules[1] + l.rules[1]];
      t.ledgerPlans = [t.ledgerPlans[0] + l.plans[0], t.ledgerPlans[1] + l.plans[1]];
    }
  }
  return t;
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);
const frac = (n: number, d: number) => (d === 0 ? '—' : `${n}/${d} (${pct(n, d)})`);

export const CONTRACT_HEADER = [
  'format',
  '8 headings',
  'kept after 3 chained',
  'rules cut',
  'ledger rules (3 chained)',
  'ledger plans (3 chained)',
  'untrue claims',
];

export function contractRow(label: string, t: ContractTally): string[] {
  return [
    label,
    frac(t.headed, t.summaries),
    frac(t.thirdKept, t.firstKept),
    String(t.rulesCut),
    frac(...t.ledgerRules),
    frac(...t.ledgerPlans),
    String(t.untrue.length),
  ];
}

/** The targets of the contract, met or not. */
export function contractVerdicts(t: ContractTally): string[] {
  const line = (ok: boolean, text: string) => `  ${ok ? 'met    ' : 'NOT MET'}  ${text}`;
  const ledgerOk = t.ledgerRules[0] === t.ledgerRules[1] && t.ledgerPlans[0] === t.ledgerPlans[1];
  return [
    line(t.headed === t.summaries, `all 8 headings in every summary: ${frac(t.headed, t.summaries)}`),
    line(
      t.firstKept === 0 || t.thirdKept / t.firstKept >= 0.95,
      `3 chained compactions keep ≥ 95% of the requests and files the first kept: ${frac(t.thirdKept, t.firstKept)}`,
    ),
    line(t.rulesCut === 0, `no standing instruction cut: ${t.rulesCut} cut`),
    line(ledgerOk, `ledger across 3 chained compactions: rules ${frac(...t.ledgerRules)}, plan statuses ${frac(...t.ledgerPlans)}`),
    line(t.untrue.length === 0, `no untrue claim (archive pointers, other sessions' titles, "(none)" after a declined call): ${t.untrue.length}`),
  ];
}
