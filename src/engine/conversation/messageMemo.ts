// Values that depend on one message alone (its classification, the files its tool calls name,
// the facts it states), computed once per message and reused by every stage and every later
// compaction of the conversation: a conversation that grew by a few messages is analyzed again
// in the time those messages take, plus the passes over the whole that are cheap.
//
// A value is found by the message object first (free), then by the message's content — every
// field, so two messages that differ in anything never share an entry — hashed the way the token
// counter's cache is (a re-imported transcript brings new objects with the same content). Each
// kind of value has its own MemoSlot; what a slot computes must read nothing but the message
// (and constants that stay the same for the slot: a slot per set of options).
//
// Messages are treated as immutable: the engine never changes a message, and one changed in
// place by a caller is a new message only if it is a new object.

import { GenerationalMap } from '../memo';
import { hash64 } from '../text/hash';
import type { Message } from './model';

/** A kind of derived value (compare by identity). */
export interface MemoSlot<T> {
  readonly name: string;
  /** Where its values sit in a message's entry. */
  readonly index: number;
  /** Phantom: the type of the value. */
  readonly _type?: T;
}

const SLOTS = new Map<string, MemoSlot<unknown>>();

/** The slot of that name (the same object for the same name): a slot whose value depends on a
 *  setting carries the setting in its name. */
export function memoSlot<T>(name: string): MemoSlot<T> {
  let slot = SLOTS.get(name);
  if (!slot) SLOTS.set(name, (slot = { name, index: SLOTS.size }));
  return slot as MemoSlot<T>;
}

/** For each settings object, its slots by name (and the last one asked for, asked most often). */
const SETTINGS_SLOTS = new WeakMap<object, Map<string, MemoSlot<unknown>>>();
let lastSettings: { settings: object; slots: Map<string, MemoSlot<unknown>> } | undefined;

/** The slot of that name for values that also depend on `settings` (a plain object of numbers
 *  and strings, such as a set of constants): one slot per distinct settings, whichever object
 *  carries them. */
export function memoSlotWith<T>(name: string, settings: object): MemoSlot<T> {
  let slots = lastSettings?.settings === settings ? lastSettings.slots : SETTINGS_SLOTS.get(settings);
  if (!slots) SETTINGS_SLOTS.set(settings, (slots = new Map()));
  // Replaced only when the settings change (this runs for every message a builder reads).
  if (lastSettings?.slots !== slots) lastSettings = { settings, slots };
  let slot = slots.get(name);
  if (!slot) {
    const text = JSON.stringify(settings);
    slot = memoSlot(`${name}@${hash64(text)}:${text.length}`);
    slots.set(name, slot);
  }
  return slot as MemoSlot<T>;
}

/** A message's values by slot index; ABSENT where none was computed yet. */
type Entry = unknown[];

/** The values kept for one message (MessageMemo.entry): a view that holds it reads them without
 *  looking the message up again. */
export type MemoEntry = Entry;

const ABSENT = Symbol('absent');

/** What an entry holds at slot index `i`: its value, or ABSENT. */
function keptAt(entry: MemoEntry, i: number): unknown {
  return i < entry.length ? entry[i] : ABSENT;
}

/** Puts `v` at slot index `i` of an entry (the slots before it, if new, ABSENT) and gives it back. */
function storeAt<T>(entry: MemoEntry, i: number, v: T): T {
  while (entry.length < i) entry.push(ABSENT);
  entry[i] = v;
  return v;
}

/** Messages remembered by content per generation (two generations are kept). */
const CONTENT_ENTRIES = 100_000;

/** Small numbers standing for terms, the same for the life of the object: sets of terms kept as
 *  numbers take a fraction of the memory of sets of strings. */
export class TermNumbers {
  private readonly ids = new Map<string, number>();

  of(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) this.ids.set(term, (id = this.ids.size));
    return id;
  }
}

export class MessageMemo {
  /** A memo that outlives the call holds its messages weakly; one for a single call holds them
   *  plainly (it dies with the call), which spares the collector a large weak table. */
  private readonly byObject: WeakMap<Message, Entry> | Map<Message, Entry>;
  private readonly byContent: GenerationalMap<string, Entry> | undefined;
  private readonly sequences = new Map<MemoSlot<unknown>, { messages: readonly Message[]; state: unknown }>();
  /** The last sequence copied for `sequences`, and the array it was copied from: the scans of one
   *  plan resume over the same array, and share one copy of it. */
  private lastCopy: { from: readonly Message[]; copy: readonly Message[] } | undefined;

  /** Numbers for terms, the same for the life of the memo (the readings it keeps hold them). */
  readonly terms = new TermNumbers();

  /** `byContent: false` for a memo that only lives through one call: every message is its own
   *  object there, and hashing the content would find nothing. */
  constructor(opts: { byContent?: boolean } = {}) {
    this.byContent = opts.byContent === false ? undefined : new GenerationalMap<string, Entry>(CONTENT_ENTRIES);
    this.byObject = this.byContent ? new WeakMap() : new Map();
  }

  /** Whether the memo outlives one call (then what only a later call can reuse is worth keeping). */
  get lasting(): boolean {
    return this.byContent !== undefined;
  }

  /** The value of `slot` for `m`, computed by `compute` the first time. */
  get<T>(m: Message, slot: MemoSlot<T>, compute: (m: Message) => T): T {
    // No closure made per call (it runs for every message, per stage).
    const entry = this.entryOf(m);
    const kept = keptAt(entry, slot.index);
    return kept !== ABSENT ? (kept as T) : storeAt(entry, slot.index, compute(m));
  }

  /** The value of `slot` kept for `m`, if any (nothing is computed). */
  peek<T>(m: Message, slot: MemoSlot<T>): T | undefined {
    return this.peekIn(this.entryOf(m), slot);
  }

  /** The value of `slot` kept in an entry (MessageMemo.entry), if any (nothing is computed). */
  peekIn<T>(entry: MemoEntry, slot: MemoSlot<T>): T | undefined {
    const v = keptAt(entry, slot.index);
    return v === ABSENT ? undefined : (v as T);
  }

  /** The value of `slot` for `m`, through its entry when the caller holds it (a view's message). */
  read<T>(m: Message, entry: MemoEntry | undefined, slot: MemoSlot<T>, compute: () => T): T {
    return this.getIn(entry ?? this.entryOf(m), slot, compute);
  }

  /** read() with `compute(arg)`: the caller makes no closure per call. */
  readWith<T, A>(m: Message, entry: MemoEntry | undefined, slot: MemoSlot<T>, compute: (arg: A) => T, arg: A): T {
    const e = entry ?? this.entryOf(m);
    const kept = keptAt(e, slot.index);
    return kept !== ABSENT ? (kept as T) : storeAt(e, slot.index, compute(arg));
  }

  /** Puts `value` as the value of `slot` for `m`: a value that depends on more than the message
   *  (its analysis) is read again when that changed, and replaces the one kept. */
  set<T>(m: Message, entry: MemoEntry | undefined, slot: MemoSlot<T>, value: T): void {
    storeAt(entry ?? this.entryOf(m), slot.index, value);
  }

  /** The values kept for `m`. */
  entry(m: Message): MemoEntry {
    return this.entryOf(m);
  }

  /** The value of `slot` in an entry (MessageMemo.entry), computed by `compute` the first time. */
  getIn<T>(entry: MemoEntry, slot: MemoSlot<T>, compute: () => T): T {
    const kept = keptAt(entry, slot.index);
    return kept !== ABSENT ? (kept as T) : storeAt(entry, slot.index, compute());
  }

  /**
   * State built by a scan over a sequence of messages in order, kept for the next scan: when the
   * new sequence starts with the same message objects as the last one (a conversation that grew),
   * the scan resumes from `state` at the first new message; else it starts over from `init()`.
   * `advance(state, from)` scans messages[from…] into the state. The state returned is the one
   * kept: a caller that hands parts of it out copies them first. `same(state)`: whether the kept
   * state was scanned with what this scan reads besides the messages (else it starts over).
   */
  resume<S>(slot: MemoSlot<S>, messages: readonly Message[], init: () => S, advance: (state: S, from: number) => void, same?: (state: S) => boolean): S {
    const last = this.sequences.get(slot as MemoSlot<unknown>);
    let state: S;
    let from = 0;
    if (last && last.messages.length <= messages.length && (!same || same(last.state as S)) && startsWith(messages, last.messages)) {
      state = last.state as S;
      from = last.messages.length;
    } else state = init();
    advance(state, from);
    this.sequences.set(slot as MemoSlot<unknown>, { messages: this.copyOf(messages), state });
    return state;
  }

  /**
   * The value `compute` gave for the last sequence of exactly these message objects read with
   * these `deps` (compared by identity, in order: what the value reads besides the messages);
   * computed again when anything differs. The value returned is the one kept.
   */
  same<T>(slot: MemoSlot<T>, messages: readonly Message[], deps: readonly unknown[], compute: () => T): T {
    const kept = this.resume(
      slot as MemoSlot<{ deps: readonly unknown[]; value: T | undefined; fresh: boolean }>,
      messages,
      () => ({ deps, value: undefined, fresh: true }),
      (state, from) => {
        if (state.fresh || from !== messages.length || !sameItems(state.deps, deps)) {
          state.deps = deps;
          state.value = compute();
        }
        state.fresh = false;
      },
    );
    return kept.value as T;
  }

  /** A copy of `messages` (kept: the caller may change its array later), shared with the last
   *  copy made when that was made from the same array and still holds what it holds. */
  private copyOf(messages: readonly Message[]): readonly Message[] {
    const last = this.lastCopy;
    if (last && last.from === messages && sameItems(messages, last.copy)) return last.copy;
    const copy = messages.slice();
    this.lastCopy = { from: messages, copy };
    return copy;
  }

  private entryOf(m: Message): Entry {
    let e = this.byObject.get(m);
    if (e) return e;
    if (this.byContent) {
      const content = JSON.stringify(m);
      // The length guards the 64-bit hash against the odd collision.
      const key = `${hash64(content)}:${content.length}`;
      e = this.byContent.get(key);
      if (!e) {
        e = [];
        this.byContent.set(key, e);
      }
    } else e = [];
    this.byObject.set(m, e);
    return e;
  }
}

/** Whether `xs` starts with the very items of `prefix` (a plain loop: it runs over every
 *  message of a long conversation for each kept scan, at every plan). */
export function startsWith(xs: readonly unknown[], prefix: readonly unknown[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (xs[i] !== prefix[i]) return false;
  return true;
}

/** Whether two lists hold the very same items, in order. */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a === b || (a.length === b.length && startsWith(a, b));
}

/** The empty list every kept reading that found nothing shares (most messages name no file,
 *  state no requirement, …: one object instead of one per message). */
export const NONE: readonly never[] = Object.freeze([]);

/** `xs`, or NONE when it is empty. */
export function orNone<T>(xs: T[]): readonly T[] {
  return xs.length === 0 ? NONE : xs;
}

/** `xs` with no room to grow: push() leaves spare capacity (a list of one has room for 17), and
 *  a list kept for each message pays for it once per message. */
export function exactSize<T>(xs: T[]): T[] {
  return xs.length === 0 ? [] : xs.slice();
}

/** exactSize for a list that is only read: NONE when it is empty. */
export function keptList<T>(xs: T[]): readonly T[] {
  return xs.length === 0 ? NONE : xs.slice();
}

/** A memo for one call when the caller keeps none: the stages of one call still share it. */
export function memoOrFresh(memo: MessageMemo | undefined): MessageMemo {
  return memo ?? new MessageMemo({ byContent: false });
}
