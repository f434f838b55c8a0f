// Section-wise merge of summaries of consecutive parts of a conversation (oldest first):
// the reduce step of chunked summarization, and the guard that a re-compaction keeps what
// the previous summary held. No model involved, so nothing can be lost here:
//   lists are concatenated and de-duplicated;
//   "All user messages" keeps every message, in order;
//   "Files and Code Sections" keeps one entry per file, its latest state, where it last appeared;
//   "Current Work" is the latest part's (what was being done most recently).

import { SECTION_NAMES, emptySectionTexts, type SectionName, type SectionTexts } from '../sections';
import { contentItems, itemKey, joinItems } from './sectionItems';

/** Sections where only the most recent part's text is true now. */
const LATEST_WINS: ReadonlySet<SectionName> = new Set(['Current Work']);
const FILES: SectionName = 'Files and Code Sections';

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
    if (LATEST_WINS.has(name)) {
      out[name] = [...texts].reverse().find((t) => contentItems(t).length > 0)?.trim() ?? '';
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
