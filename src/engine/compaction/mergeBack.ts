// The hybrid step, for any summarizer: the facts an LLM summary dropped come back from the
// extractive sections, so an LLM can make the summary better and never worse. A fact is
// missing when the section its kind belongs in lacks it. A missing fact brings back the whole
// extractive item that holds it (the bullet with its context) into the section of the same
// name; a fact the extractive pass did not write down either is added as a bullet of its own
// in the section its kind belongs to. Dropped user messages go back in conversation order.

import type { Fact, FactKind } from '../result';
import { SECTION_NAMES, type SectionName, type SectionTexts } from '../sections';
import { contentItems, itemKey, joinItems, splitItems } from '../segments/sectionText';
import { factPresent, missingFacts, normalizeForMatch } from '../validate/factMatch';

/** Where a fact belongs when no extractive item holds it. */
export const HOME_SECTION: Record<FactKind, SectionName> = {
  userMessage: 'All user messages',
  filePath: 'Files and Code Sections',
  errorSignature: 'Errors and fixes',
  pendingTask: 'Pending Tasks',
  technicalTerm: 'Key Technical Concepts',
  keyword: 'Key Technical Concepts',
  number: 'Key Technical Concepts',
};

const USER_SECTION: SectionName = 'All user messages';

export interface MergeBackResult {
  sections: SectionTexts;
  /** The facts the LLM dropped and this step restored, in `mustKeep` order. */
  mergedBack: Fact[];
}

interface ExtractiveItem {
  section: SectionName;
  text: string;
  normalized: string;
}

function extractiveItems(extractive: SectionTexts): ExtractiveItem[] {
  const out: ExtractiveItem[] = [];
  for (const section of SECTION_NAMES) {
    for (const text of splitItems(extractive[section] ?? '')) out.push({ section, text, normalized: normalizeForMatch(text) });
  }
  return out;
}

/** The extractive item holding `fact`: its home section first, then the others in order. */
function findItem(fact: Fact, items: readonly ExtractiveItem[]): ExtractiveItem | undefined {
  const home = HOME_SECTION[fact.kind];
  return items.find((i) => i.section === home && factPresent(fact, i.normalized)) ?? items.find((i) => factPresent(fact, i.normalized));
}

function bulletFor(fact: Fact): string {
  const v = fact.value.replace(/\s+/g, ' ').trim();
  return fact.kind === 'filePath' ? `- \`${v}\`` : `- ${v}`;
}

/**
 * Restore every fact of `mustKeep` that `sections` lacks. `mustKeep`'s user messages are
 * expected in conversation order (the order they are put back in).
 */
export function mergeBackMissingFacts(sections: SectionTexts, extractive: SectionTexts, mustKeep: readonly Fact[]): MergeBackResult {
  const missing = missingFromHome(sections, mustKeep);
  if (missing.length === 0) return { sections: { ...sections }, mergedBack: [] };

  const items = extractiveItems(extractive);
  const additions = new Map<SectionName, string[]>();
  const userInserts: { order: number; text: string }[] = [];
  const userOrder = userMessageOrder(mustKeep);
  const added = new Set<string>();

  for (const fact of missing) {
    const found = findItem(fact, items);
    const section = found ? found.section : HOME_SECTION[fact.kind];
    const text = found ? found.text : bulletFor(fact);
    const key = `${section}\u0000${itemKey(text)}`;
    if (added.has(key)) continue;
    added.add(key);
    if (section === USER_SECTION && fact.kind === 'userMessage') userInserts.push({ order: userOrder.get(fact.value) ?? Number.MAX_SAFE_INTEGER, text });
    else (additions.get(section) ?? additions.set(section, []).get(section)!).push(text);
  }

  const out: SectionTexts = { ...sections };
  for (const [section, texts] of additions) out[section] = joinItems([...contentItems(out[section] ?? ''), ...texts]);
  if (userInserts.length) out[USER_SECTION] = insertUserMessages(out[USER_SECTION] ?? '', userInserts, mustKeep, userOrder);
  return { sections: out, mergedBack: missing };
}

/** The facts (each kind and value once) missing from the section their kind belongs in: a file
 *  named only inside a quoted user message is not in "Files and Code Sections". */
function missingFromHome(sections: SectionTexts, mustKeep: readonly Fact[]): Fact[] {
  const byHome = new Map<SectionName, Fact[]>();
  for (const f of mustKeep) {
    const home = HOME_SECTION[f.kind];
    (byHome.get(home) ?? byHome.set(home, []).get(home)!).push(f);
  }
  const missing = new Set<Fact>();
  for (const [home, facts] of byHome) for (const f of missingFacts(facts, sections[home] ?? '')) missing.add(f);
  return mustKeep.filter((f) => missing.has(f));
}

function userMessageOrder(mustKeep: readonly Fact[]): Map<string, number> {
  const order = new Map<string, number>();
  for (const f of mustKeep) if (f.kind === 'userMessage' && !order.has(f.value)) order.set(f.value, order.size);
  return order;
}

/** Put dropped user messages back between the ones the LLM kept, by conversation order. */
function insertUserMessages(text: string, inserts: { order: number; text: string }[], mustKeep: readonly Fact[], order: Map<string, number>): string {
  const userFacts = mustKeep.filter((f) => f.kind === 'userMessage');
  // Each kept item's position: the first user message it quotes (-1 for none: stays in front).
  const placed: { order: number; text: string }[] = contentItems(text).map((item) => {
    const n = normalizeForMatch(item);
    const hit = userFacts.find((f) => factPresent(f, n));
    return { order: hit ? order.get(hit.value)! : -1, text: item };
  });
  for (const ins of [...inserts].sort((a, b) => a.order - b.order)) {
    let at = placed.length;
    for (let i = 0; i < placed.length; i++) {
      if (placed[i]!.order > ins.order) {
        at = i;
        break;
      }
    }
    placed.splice(at, 0, ins);
  }
  return joinItems(placed.map((p) => p.text));
}
