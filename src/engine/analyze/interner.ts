// One object for each distinct value of a small record that an analysis gives every message (its
// importance figures, its classification as shown): a long conversation repeats a few of them, and
// a record per message kept ~300 bytes per message alive for as long as the analysis is used.
// The records are read only, everywhere: an object may stand for many messages.

import { sameItems } from '../conversation/messageMemo';
import type { Classification, ImportanceMetrics } from '../result';

/** Hands out the first object seen equal to each one given. */
export class Interner<T extends object> {
  /** By hash: one object, or the several whose hashes collide. */
  private readonly byHash = new Map<number, T | T[]>();

  constructor(
    private readonly hash: (x: T) => number,
    private readonly same: (a: T, b: T) => boolean,
  ) {}

  /** The object equal to `x` given first (`x` itself when none was). */
  of(x: T): T {
    // Kept to 30 bits: a small integer is a map key V8 hashes fastest.
    const h = this.hash(x) & 0x3fffffff;
    const at = this.byHash.get(h);
    if (at === undefined) {
      this.byHash.set(h, x);
      return x;
    }
    if (!Array.isArray(at)) {
      if (this.same(at, x)) return at;
      this.byHash.set(h, [at, x]);
      return x;
    }
    for (const y of at) if (this.same(y, x)) return y;
    at.push(x);
    return x;
  }
}

/** A step of a hash over numbers: `x` is a figure rounded to 4 decimals (analyzeConversation's r4),
 *  so x × 10⁴ is a whole number. */
function hashFigure(h: number, x: number): number {
  return Math.imul(h ^ Math.round(x * 10000), 0x01000193);
}

/** A step of a hash over short strings (names such as 'historical'). */
function hashName(h: number, s: string): number {
  return Math.imul(h ^ (s.length * 131 + s.charCodeAt(0) + s.charCodeAt(s.length - 1) * 7), 0x01000193);
}

/** Importance figures of all zeros: an object to write figures into (each field is written). */
export function zeroImportance(): ImportanceMetrics {
  return {
    criticality: 0,
    dependency: 0,
    uniqueness: 0,
    actionability: 0,
    overall: 0,
    temporal: 0,
    temporalCategory: 'historical',
    relevance: 0,
    roleScore: 0,
    tier: 0,
  };
}

export function sameImportance(a: ImportanceMetrics, b: ImportanceMetrics): boolean {
  return (
    a === b ||
    (a.criticality === b.criticality &&
      a.dependency === b.dependency &&
      a.uniqueness === b.uniqueness &&
      a.actionability === b.actionability &&
      a.overall === b.overall &&
      a.temporal === b.temporal &&
      a.temporalCategory === b.temporalCategory &&
      a.relevance === b.relevance &&
      a.roleScore === b.roleScore &&
      a.tier === b.tier)
  );
}

function hashImportance(x: ImportanceMetrics): number {
  let h = hashName(0x811c9dc5, x.temporalCategory);
  h = hashFigure(h, x.criticality);
  h = hashFigure(h, x.dependency);
  h = hashFigure(h, x.uniqueness);
  h = hashFigure(h, x.actionability);
  h = hashFigure(h, x.temporal);
  h = hashFigure(h, x.relevance);
  h = hashFigure(h, x.roleScore);
  return hashFigure(h, x.tier);
}

function sameClassification(a: Classification, b: Classification): boolean {
  return (
    a.contentType === b.contentType &&
    a.confidence === b.confidence &&
    a.technicalLevel === b.technicalLevel &&
    a.actionability === b.actionability &&
    a.density === b.density &&
    sameItems(a.keywords, b.keywords)
  );
}

function hashClassification(x: Classification): number {
  let h = hashName(hashName(hashName(0x811c9dc5, x.contentType), x.technicalLevel), x.actionability);
  h = hashFigure(hashFigure(h, x.confidence), x.density);
  return x.keywords.length === 0 ? h : hashName(h, x.keywords[0]!);
}

/** Importance figures, one object for each distinct set. */
export function importanceInterner(): Interner<ImportanceMetrics> {
  return new Interner(hashImportance, sameImportance);
}

/** Classifications as shown, one object for each distinct one. */
export function classificationInterner(): Interner<Classification> {
  return new Interner(hashClassification, sameClassification);
}
