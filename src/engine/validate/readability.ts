// Readability check: the sections must be sentences and
// lists a person can read, not keyword soup. Per section, outside code blocks:
//   • keyword soup: a line of SOUP_MIN_WORDS words or more with no punctuation at all and
//     almost no function words (the, of, to, 的, 了 …);
//   • a wall: a single line longer than WALL_LINE_CHARS characters;
//   • an unclosed code block (it would swallow the rest of the summary).
// The score (0..1) is the share of readable lines, less a penalty per broken code block; it is
// the "semantic coherence" part of the overall retention.

import { SECTION_NAMES, type SectionTexts } from '../sections';
import { ENGLISH_STOPWORDS } from '../text/terms';
import type { ValidateConstants } from './constants';

export interface ReadabilityReport {
  ok: boolean;
  issues: string[];
  /** 0..1 */
  score: number;
}

const CHINESE_FUNCTION_CHARS = /[的了是在和与我你他她它们这那就也都而及或]/g;
const PUNCTUATION = /[.,;:!?()[\]{}"'`—–\-/|=<>。，；：！？、（）【】「」]/;
/** Penalty for one unclosed code block. */
const FENCE_PENALTY = 0.2;

function isSoup(line: string, c: ValidateConstants): boolean {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (words.length < c.SOUP_MIN_WORDS || PUNCTUATION.test(line)) return false;
  const stop = words.filter((w) => ENGLISH_STOPWORDS.has(w.toLowerCase())).length + (line.match(CHINESE_FUNCTION_CHARS)?.length ?? 0);
  return stop / words.length < c.SOUP_MAX_STOPWORD_SHARE;
}

export function checkReadability(sections: SectionTexts, c: ValidateConstants): ReadabilityReport {
  const issues: string[] = [];
  let lines = 0;
  let bad = 0;
  let penalty = 0;
  for (const name of SECTION_NAMES) {
    const text = sections[name];
    if (!text.trim()) continue;
    let fence: string | undefined;
    let soup = 0;
    let walls = 0;
    for (const line of text.split('\n')) {
      const f = /^\s*(```+|~~~+)/.exec(line);
      if (f) {
        if (fence === undefined) fence = f[1];
        else if (f[1]!.startsWith(fence)) fence = undefined;
        continue;
      }
      if (fence !== undefined || !line.trim()) continue;
      lines++;
      if (line.length > c.WALL_LINE_CHARS) {
        walls++;
        bad++;
      } else if (isSoup(line, c)) {
        soup++;
        bad++;
      }
    }
    if (soup > 0) issues.push(`${name}: ${soup} line${soup > 1 ? 's' : ''} of keyword soup (words without sentences)`);
    if (walls > 0) issues.push(`${name}: ${walls} line${walls > 1 ? 's' : ''} longer than ${c.WALL_LINE_CHARS} characters`);
    if (fence !== undefined) {
      issues.push(`${name}: a code block is not closed`);
      penalty += FENCE_PENALTY;
    }
  }
  const score = Math.max(0, (lines > 0 ? 1 - bad / lines : 1) - penalty);
  return { ok: issues.length === 0, issues, score: Math.round(score * 1000) / 1000 };
}
