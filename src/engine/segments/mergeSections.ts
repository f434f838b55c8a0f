// Merging summaries section by section, never a summary of a summary.
//
// mergeSectionTexts folds the section texts of consecutive summaries (oldest first): of the
// earlier summaries a span holds, of chunk summaries of one conversation, of a chunk onto the
// chunks before it. No model is involved, so nothing can be lost here:
//   lists are concatenated and de-duplicated;
//   "All user messages" keeps every message, in order;
//   "Files and Code Sections" keeps one entry per file, its latest state, where it last appeared;
//   "Current Work" is the latest part's (what was being done most recently);
//   the ledger at the end of "Primary Request and Intent" folds entry by entry (segments/ledger.ts).
//
// Re-compaction: the merged earlier sections then become items again, so the builders merge
// them with the new material section by section. Per section (see each builder):
//   • All user messages: every earlier entry stays (required); it may be shortened, never removed.
//   • Files and Code Sections / Errors and fixes / Key Technical Concepts: keyed by path /
//     signature / term; a new entry for the same key replaces the old one (latest state wins).
//   • Primary Request and Intent: the earlier intent stays first (required).
//   • Problem Solving / Pending Tasks: earlier entries stay as optional items, below new ones.
//   • Current Work: replaced by the new span's (kept only when the new span adds nothing).

import type { SectionName, SectionTexts } from '../sections';
import { SECTION_NAMES, emptySectionTexts } from '../sections';
import { contentItems, itemKey, joinItems } from './sectionText';
import { mergeLedgers, parseLedger, renderLedger, withoutLedger, type LedgerEntry } from './ledger';
import { parseSummary } from './parseSummary';
import { listItem } from '../text/textCut';

/** The sections of every earlier summary in the span, merged in order (a conversation normally
 *  holds one; several are folded oldest first). Also returns how many compactions they record. */
export function previousSections(summaryTexts: readonly string[]): { sections: SectionTexts; compactions: number; summarizedMessages: number } | undefined {
  if (summaryTexts.length === 0) return undefined;
  const parts: SectionTexts[] = [];
  let compactions = 0;
  let summarizedMessages = 0;
  for (const text of summaryTexts) {
    const p = parseSummary(text);
    // A summary without our headings (Claude Code's one-line summaries, a hand-written note):
    // kept whole under the intent rather than lost.
    const unheaded = p.found.length === 0 && p.preamble;
    parts.push(unheaded ? { ...p.sections, 'Primary Request and Intent': listItem(`Earlier summary: ${p.preamble}`) } : p.sections);
    compactions += p.compactions ?? 1;
    summarizedMessages += p.summarizedMessages ?? 0;
  }
  return { sections: parts.length === 1 ? parts[0]! : mergeSectionTexts(parts), compactions, summarizedMessages };
}

/** Sections where only the most recent part's text is true now. */
const LATEST_WINS: ReadonlySet<SectionName> = new Set(['Current Work']);
const FILES: SectionName = 'Files and Code Sections';
const PRIMARY: SectionName = 'Primary Request and Intent';

/** A path-looking token: has a slash or a file extension (src/a.ts, README.md, C:\x\y.py). */
const PATH_TOKEN = /(?:[A-Za-z]:)?[\w@.~-]*(?:[\\/][\w@.~-]+)+|[\w@~-][\w@.~-]*\.[A-Za-z][A-Za-z0-9]{0,7}\b/;

/** The file an item of "Files and Code Sections" is about, from its first line. */
export function fileKeyOf(item: string): string | undefined {
  const first = item.split('\n', 1)[0]!.replace(/[`*_#]/g, ' ');
  const m = PATH_TOKEN.exec(first);
  return m ? m[0].replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase() : undefined;
}

export function mergeSectionTexts(parts: readonly Partial<SectionTexts>[]): SectionTexts {
  const out = emptySectionTexts();
  for (const name of SECTION_NAMES) {
    const texts = parts.map((p) => p[name] ?? '');
    if (name === PRIMARY) {
      // The ledgers fold into one, entry by entry (segments/ledger.ts), after the other items.
      let ledger: LedgerEntry[] = [];
      for (const t of texts) ledger = mergeLedgers(ledger, parseLedger(t) ?? []);
      out[name] = [mergeLists(texts.map(withoutLedger)), renderLedger(ledger)].filter(Boolean).join('\n');
    } else if (LATEST_WINS.has(name)) {
      out[name] =
        [...texts]
          .reverse()
          .find((t) => contentItems(t).length > 0)
          ?.trim() ?? '';
    } else if (name === FILES) {
      out[name] = mergeFiles(texts);
    } else {
      out[name] = mergeLists(texts);
    }
  }
  return out;
}

function mergeLists(texts: readonly string[]): string {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const t of texts) {
    for (const item of contentItems(t)) {
      const k = itemKey(item);
      if (seen.has(k)) continue;
      seen.add(k);
      items.push(item);
    }
  }
  return joinItems(items);
}

function mergeFiles(texts: readonly string[]): string {
  // Collect in order; a later entry for the same file replaces the earlier one.
  const entries: { key: string; item: string }[] = [];
  const seen = new Set<string>();
  for (const t of texts) {
    for (const item of contentItems(t)) {
      const file = fileKeyOf(item);
      const key = file ? `file:${file}` : `text:${itemKey(item)}`;
      if (file) {
        const at = entries.findIndex((e) => e.key === key);
        if (at >= 0) entries.splice(at, 1);
      } else if (seen.has(key)) continue;
      seen.add(key);
      entries.push({ key, item });
    }
  }
  return joinItems(entries.map((e) => e.item));
}
