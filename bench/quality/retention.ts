// When a fact counts as "retained" by a compacted conversation. Every rule looks at the WHOLE
// output (the exported Markdown of the result conversation: summary and kept messages alike),
// case-insensitively, after whitespace is collapsed to single spaces.
//
//   user request  its first REQUEST_PREFIX_CHARS characters (whitespace-normalized) appear
//   file path     "parent/basename" appears (basename alone for a bare file name), so relative
//                 and absolute spellings of the same file both count
//   error         its signature "Type: first 40 chars of the message" appears
//   answer        at least ANSWER_TERM_SHARE of its key terms (rawFacts.answerTermsOf: names,
//                 numbers, rare words that occur in the conversation) appear as whole words

import { wordsOf, type ExpectedFacts } from './rawFacts';

/** How much of a user request must survive verbatim: enough to identify it, short enough that a
 *  summary which cuts long messages at a sentence boundary keeps it. */
export const REQUEST_PREFIX_CHARS = 80;
/** Share of an answer's key terms that must appear for the answer to count as retained. */
export const ANSWER_TERM_SHARE = 0.75;

export type FactKind = 'userRequests' | 'files' | 'errors' | 'answers';
export const FACT_KINDS: readonly FactKind[] = ['userRequests', 'files', 'errors', 'answers'];
export const FACT_LABELS: Record<FactKind, string> = {
  userRequests: 'user requests',
  files: 'files',
  errors: 'errors',
  answers: 'answers',
};

export function normalizeText(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The output as the rules search it. */
export interface OutputIndex {
  text: string;
  words: Set<string>;
}

export function indexOutput(markdown: string): OutputIndex {
  return { text: normalizeText(markdown), words: new Set(wordsOf(markdown)) };
}

/** The string a fact is looked for by (undefined for answers, which match by terms). */
export function needleOf(kind: Exclude<FactKind, 'answers'>, fact: string): string {
  switch (kind) {
    case 'userRequests':
      return normalizeText(fact).slice(0, REQUEST_PREFIX_CHARS).trim();
    case 'files': {
      const parts = fact
        .replace(/\\/g, '/')
        .split('/')
        .filter((p) => p !== '' && p !== '.');
      return normalizeText(parts.slice(-2).join('/'));
    }
    case 'errors':
      return normalizeText(fact);
  }
}

export interface KindScore {
  expected: number;
  retained: number;
  /** The facts that did not survive (for the report of what the engine loses). */
  lost: string[];
}

/** Scores one conversation's facts against one output. Answers without any key term found in
 *  the conversation are not scored (nothing could retain them). */
export function scoreFacts(facts: ExpectedFacts, out: OutputIndex): Record<FactKind, KindScore> {
  const score = (kind: Exclude<FactKind, 'answers'>): KindScore => {
    const lost: string[] = [];
    let retained = 0;
    for (const f of facts[kind]) {
      if (out.text.includes(needleOf(kind, f))) retained++;
      else lost.push(f);
    }
    return { expected: facts[kind].length, retained, lost };
  };
  const answers: KindScore = { expected: 0, retained: 0, lost: [] };
  facts.answers.forEach((a, i) => {
    const terms = facts.answerTerms[i] ?? [];
    if (terms.length === 0) return;
    answers.expected++;
    const found = terms.filter((t) => out.words.has(t)).length;
    if (found >= ANSWER_TERM_SHARE * terms.length) answers.retained++;
    else answers.lost.push(a);
  });
  return { userRequests: score('userRequests'), files: score('files'), errors: score('errors'), answers };
}
