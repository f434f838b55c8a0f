// Repeated lines in a tool output (18 × "x.png: unable to read: [Errno 2] No such file or
// directory: …", a progress bar printed 300 times): a run of consecutive lines that are identical
// collapses to the line and a count, "… 17 more identical lines"; a run whose lines differ only
// in their numbers (timestamps, counters) keeps its first and last line around "… 16 more lines
// like these, differing only in their numbers". Nothing else in the text changes; a collapse is
// made only where it makes the text shorter.

import { formatCount } from '../text/formatNumber';

/** The shape of a line: its digit runs masked, trailing whitespace ignored. */
function shapeOf(line: string): string {
  return line.replace(/\d+/g, '#').trimEnd();
}

export interface CollapsedText {
  text: string;
  /** Lines replaced by the counts. */
  collapsedLines: number;
  /** Runs collapsed. */
  runs: number;
}

/** `text` with every run of at least `minRun` repeated lines collapsed (see the file comment);
 *  `where`, if given, is added to the first marker in brackets (where the full text is). */
export function collapseRepeatedLines(text: string, minRun: number, where?: string): CollapsedText {
  const lines = text.split('\n');
  const out: string[] = [];
  let collapsedLines = 0;
  let runs = 0;
  let i = 0;
  const least = Math.max(2, Math.floor(minRun));
  const note = () => (runs === 0 && where ? ` [${where}]` : '');
  while (i < lines.length) {
    const line = lines[i]!;
    let j = i + 1;
    const same = line.trimEnd();
    while (j < lines.length && lines[j]!.trimEnd() === same) j++;
    const identical = j - i;
    if (same !== '' && identical >= least) {
      const marker = `… ${formatCount(identical - 1)} more identical line${identical - 1 === 1 ? '' : 's'}${note()}`;
      out.push(line, marker);
      collapsedLines += identical - 1;
      runs++;
      i = j;
      continue;
    }
    const shape = shapeOf(line);
    j = i + 1;
    while (j < lines.length && shapeOf(lines[j]!) === shape) j++;
    const alike = j - i;
    // Lines with no digits are identical or not alike at all; those were handled above.
    if (/\d/.test(line) && shape !== '' && alike >= Math.max(3, least)) {
      const inner = alike - 2;
      const marker = `… ${formatCount(inner)} more line${inner === 1 ? '' : 's'} like these, differing only in their numbers${note()}`;
      const saved = lines.slice(i + 1, j - 1).join('\n').length;
      if (saved > marker.length) {
        out.push(line, marker, lines[j - 1]!);
        collapsedLines += inner;
        runs++;
        i = j;
        continue;
      }
    }
    out.push(line);
    i++;
  }
  return runs === 0 ? { text, collapsedLines: 0, runs: 0 } : { text: out.join('\n'), collapsedLines, runs };
}
