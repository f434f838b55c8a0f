// Section text as a list of items — what merging and merge-back work on (the builders' own
// unit, with its renderings and priority, is SectionItem in sectionItems.ts). An item is a
// top-level bullet or numbered entry with its indented continuation lines and sub-bullets,
// a Markdown heading with what follows it up to the next item, or a paragraph. Fenced code
// stays inside the item it follows.

const ITEM_START = /^(?:[-*+•]\s|\d{1,3}[.)]\s|#{1,6}\s)/;
const FENCE = /^\s*(```|~~~)/;

export function splitItems(text: string): string[] {
  const items: string[][] = [];
  let current: string[] | undefined;
  let inFence = false;
  let afterBlank = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+$/, '');
    if (inFence) {
      (current ??= pushNew(items)).push(line);
      if (FENCE.test(line)) inFence = false;
      continue;
    }
    if (!line.trim()) {
      afterBlank = true;
      continue;
    }
    const indented = /^\s/.test(line);
    const starts = !indented && (ITEM_START.test(line) || afterBlank || current === undefined);
    if (starts) current = pushNew(items);
    else if (afterBlank && current) current.push('');
    current!.push(line);
    afterBlank = false;
    if (FENCE.test(line)) inFence = true;
  }
  return items.map((l) => l.join('\n'));
}

function pushNew(items: string[][]): string[] {
  const fresh: string[] = [];
  items.push(fresh);
  return fresh;
}

/** An item's identity for de-duplication: no list marker, no emphasis, case and spacing folded. */
export function itemKey(item: string): string {
  return item
    .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, '')
    .replace(/[`*_]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const PLACEHOLDERS: ReadonlySet<string> = new Set(['none', 'none.', 'n/a', 'n/a.', 'nothing.', 'nothing', '-', '无', '无。', '暂无', '暂无。']);

/** "None." and friends: what a model writes under an empty heading. */
export function isPlaceholderItem(item: string): boolean {
  return PLACEHOLDERS.has(itemKey(item));
}

/** The items of `text` without placeholders, for adding real content to. */
export function contentItems(text: string): string[] {
  return splitItems(text).filter((i) => !isPlaceholderItem(i));
}

/** Items joined back into section text: one per line, paragraphs separated by a blank line. */
export function joinItems(items: readonly string[]): string {
  let out = '';
  for (const it of items) {
    if (!out) out = it;
    else out += ITEM_START.test(it) && !/^#/.test(it) ? `\n${it}` : `\n\n${it}`;
  }
  return out;
}
