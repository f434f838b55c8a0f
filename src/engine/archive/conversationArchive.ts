// Archiving a conversation before a compaction replaces it, and reading it back for undo.
//
// The key is content-addressed: "conv-" + SHA-256 of the conversation's canonical JSON, so the
// same conversation archived twice is stored once. The stored bytes are JSON.stringify of the
// conversation exactly as given (its own key order), so undo gives back a conversation that is
// deep-equal to the original and serializes to the identical JSON. If the store already holds a
// deep-equal copy spelled with another key order, this copy goes under a variant key (the key
// plus a hash of its exact text) rather than being silently swapped for the other spelling.

import type { Conversation } from '../conversation/model';
import type { ArchiveStore } from './archiveStore';
import { canonicalJsonTo } from './canonicalJson';
import { hashHex, pureSha256, type ContentHasher } from './contentHasher';

export const ARCHIVE_KEY_PREFIX = 'conv-';
/** Hex digits of the exact-text hash in a variant key: plenty to tell two spellings apart. */
const VARIANT_HASH_CHARS = 16;

/** Expected failures of undo: the entry is missing or does not hold what its key promises. */
export class ArchiveError extends Error {
  constructor(
    readonly archiveId: string,
    message: string,
  ) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** SHA-256 of a value's canonical JSON, hashed as it is written (the text is never whole). */
function canonicalHash(value: unknown, hasher: ContentHasher): string {
  const hash = hasher.create();
  canonicalJsonTo(value, (piece) => hash.update(piece));
  return hash.hex();
}

/** The content address of a conversation (without writing anything). */
export function conversationKey(conversation: Conversation, hasher: ContentHasher = pureSha256): string {
  return ARCHIVE_KEY_PREFIX + canonicalHash(conversation, hasher);
}

/** Characters of the exact JSON handed to the store at a time. */
const PIECE_CHARS = 256 * 1024;

/** Whether JSON.stringify would call a toJSON of `v` (its output could depend on the key it is
 *  written under, so such a value is written as part of its parent). */
function hasToJson(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

/** JSON.stringify(conversation) in pieces of about PIECE_CHARS, the same text: its members as
 *  JSON.stringify writes them, the messages one at a time, so the whole text is never one string. */
export function* exactJsonPieces(conversation: Conversation): Generator<string> {
  const conv = conversation as unknown as Record<string, unknown>;
  const messages = conv['messages'];
  if (hasToJson(conv) || !Array.isArray(messages) || hasToJson(messages) || messages.some(hasToJson)) {
    yield JSON.stringify(conversation);
    return;
  }
  let pending = '{';
  let members = 0;
  for (const k of Object.keys(conv)) {
    if (k !== 'messages') {
      // Written inside an object of its own, so a value JSON leaves out is left out here too.
      const member = JSON.stringify({ [k]: conv[k] }).slice(1, -1);
      if (member === '') continue;
      pending += (members++ > 0 ? ',' : '') + member;
      continue;
    }
    pending += `${members++ > 0 ? ',' : ''}${JSON.stringify(k)}:[`;
    for (let i = 0; i < messages.length; i++) {
      pending += (i > 0 ? ',' : '') + (JSON.stringify(messages[i]) ?? 'null');
      if (pending.length >= PIECE_CHARS) {
        yield pending;
        pending = '';
      }
    }
    pending += ']';
  }
  yield `${pending}}`;
}

/** Whether the pieces spell `text` exactly. */
function spells(text: string, pieces: Iterable<string>): boolean {
  let at = 0;
  for (const p of pieces) {
    if (!text.startsWith(p, at)) return false;
    at += p.length;
  }
  return at === text.length;
}

/** Stores the conversation (if not stored yet) and returns the key undo needs. The stored text is
 *  handed to the store in pieces (exactJsonPieces), never built whole. */
export async function archiveConversation(conversation: Conversation, archive: ArchiveStore, hasher: ContentHasher = pureSha256): Promise<string> {
  const key = conversationKey(conversation, hasher);
  const exact = () => exactJsonPieces(conversation);
  const existing = (await archive.has(key)) ? await archive.get(key) : undefined;
  if (existing === undefined) {
    await archive.put(key, exact());
    return key;
  }
  if (spells(existing, exact())) return key;
  const hash = hasher.create();
  for (const piece of exact()) hash.update(piece);
  const variant = `${key}.${hash.hex().slice(0, VARIANT_HASH_CHARS)}`;
  if (!(await archive.has(variant))) await archive.put(variant, exact());
  return variant;
}

/** The archived conversation, checked against its key: exactly what was archived, or an ArchiveError. */
export async function readArchivedConversation(archiveId: string, archive: ArchiveStore, hasher: ContentHasher = pureSha256): Promise<Conversation> {
  if (typeof archiveId !== 'string' || !archiveId.startsWith(ARCHIVE_KEY_PREFIX)) {
    throw new ArchiveError(String(archiveId), `archive id ${JSON.stringify(archiveId)}: expected an id starting with "${ARCHIVE_KEY_PREFIX}"`);
  }
  const data = await archive.get(archiveId);
  if (data === undefined) throw new ArchiveError(archiveId, `archive entry ${archiveId} not found: the original cannot be restored from this archive`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (e) {
    throw new ArchiveError(archiveId, `archive entry ${archiveId} is not valid JSON (${(e as Error).message})`);
  }
  const dot = archiveId.indexOf('.');
  const base = dot < 0 ? archiveId : archiveId.slice(0, dot);
  if (ARCHIVE_KEY_PREFIX + canonicalHash(parsed, hasher) !== base) {
    throw new ArchiveError(archiveId, `archive entry ${archiveId} does not match its content hash: the archive was changed or corrupted`);
  }
  if (dot >= 0 && hashHex(hasher, data).slice(0, VARIANT_HASH_CHARS) !== archiveId.slice(dot + 1)) {
    throw new ArchiveError(archiveId, `archive entry ${archiveId} does not match its text hash: the archive was changed or corrupted`);
  }
  return parsed as Conversation;
}
