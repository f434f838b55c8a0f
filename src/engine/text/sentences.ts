// Sentence splitting for English and Chinese prose as it appears in chat messages:
// Markdown lists, headings and fenced code mixed with sentences.
//
// Rules, in order:
// 1. A fenced code block (``` … ```) is one segment, returned whole (test with `isCodeSegment`).
// 2. Blank lines end a sentence. A line that starts a list item, heading, quote or table row
//    starts a new one; so does any line after one ending in terminal punctuation or a colon,
//    and an unindented line after a list item or heading.
//    Other line breaks are soft wraps: the lines are joined (with a space unless both sides are CJK).
// 3. Chinese ends a sentence at 。！？ (closing quotes/brackets stay with it), no space needed.
// 4. English ends a sentence at . ! ? followed by whitespace, except after abbreviations
//    ("e.g.", "Dr.", "vs.") or single-letter initials, and a "." only when the next word
//    starts like a sentence (capital, digit, quote, bracket, CJK). "1.2.3", "foo.py" and
//    "a.b()" never split because no whitespace follows the dot.

const FENCE_LINE = /^\s*(```|~~~)/;
const BLOCK_START = /^\s*(?:[-*+•]\s|\d{1,3}[.)]\s|#{1,6}\s|>|\|)/;
const ENDS_UNIT = /[.!?。！？:：]["'”’)\]」』）]*\s*$/;
const CJK_END = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]$/;
const CJK_START = /^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;

/** Candidate sentence ends: CJK terminals (any following), ASCII terminals before whitespace.
 *  An ASCII run is only tried from its first mark: a 20,000-dot line stays linear. */
const BOUNDARY = /[。！？]+["'”’」』）)\]]*|(?<![.!?])[.!?]+["'”’)\]]*(?=\s)/g;
const SENTENCE_START = /^["'“‘([「『（A-Z0-9\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff`*_]/;
const WORD_BEFORE_DOT = /([A-Za-z]+)\.+["'”’)\]]*$/;

const ABBREVIATIONS: ReadonlySet<string> = new Set(
  'e.g i.e eg ie etc vs mr mrs ms dr prof sr jr st fig figs no nos vol cf al approx inc ltd co corp dept est min max resp ca jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);

/** Split text into sentences (and whole fenced code blocks), trimmed, non-empty, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const unit of units(text)) {
    if (unit.code) out.push(unit.text);
    else splitUnit(unit.text, out);
  }
  return out;
}

/** True for a segment `splitSentences` returned as a fenced code block. */
export function isCodeSegment(segment: string): boolean {
  return segment.startsWith('```') || segment.startsWith('~~~');
}

/** Number of sentences (code blocks count as one), without keeping the strings. */
export function countSentences(text: string): number {
  return splitSentences(text).length;
}

interface Unit {
  text: string;
  code: boolean;
}

/** Paragraph-level units: code blocks, and runs of prose lines joined across soft wraps. */
function units(text: string): Unit[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: Unit[] = [];
  let prose = '';
  let prevEnded = true;
  let inBlock = false;
  const flush = () => {
    const t = prose.trim();
    if (t) out.push({ text: t, code: false });
    prose = '';
    prevEnded = true;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE_LINE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const block = [line];
      let j = i + 1;
      for (; j < lines.length; j++) {
        block.push(lines[j]!);
        if (lines[j]!.trimStart().startsWith(marker)) break;
      }
      out.push({ text: block.join('\n').trim(), code: true });
      i = j;
      continue;
    }
    const trimmed = line.trim();
    if (!trimmed) {
      flush();
      continue;
    }
    const startsBlock = BLOCK_START.test(line);
    // After a list item or heading, only an indented line continues it.
    if (prose && (prevEnded || startsBlock || (inBlock && !/^\s/.test(line)))) flush();
    if (!prose) {
      prose = trimmed;
      inBlock = startsBlock;
    } else prose += CJK_END.test(prose) && CJK_START.test(trimmed) ? trimmed : ` ${trimmed}`;
    prevEnded = ENDS_UNIT.test(trimmed);
  }
  flush();
  return out;
}

function splitUnit(text: string, out: string[]): void {
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m !== null; m = BOUNDARY.exec(text)) {
    const end = m.index + m[0].length;
    if (isBoundary(text, m[0], end)) {
      const s = text.slice(start, end).trim();
      if (s) out.push(s);
      start = end;
    }
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
}

function isBoundary(text: string, mark: string, end: number): boolean {
  const first = mark[0]!;
  if (first === '。' || first === '！' || first === '？') return true;
  if (first !== '.') return true; // "!" and "?" before whitespace
  const before = WORD_BEFORE_DOT.exec(text.slice(Math.max(0, end - 24), end));
  if (before) {
    const word = before[1]!;
    if (word.length === 1 && /[A-Z]/.test(word)) return false; // an initial: "J. Smith"
    if (ABBREVIATIONS.has(word.toLowerCase())) return false;
    // "e.g." / "i.e.": the letters before the last dot are separated by dots.
    const tail = text.slice(Math.max(0, end - 6), end).toLowerCase();
    if (tail.endsWith('e.g.') || tail.endsWith('i.e.')) return false;
  }
  const next = text.slice(end).trimStart();
  return next === '' || SENTENCE_START.test(next);
}
