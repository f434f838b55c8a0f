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
import { Sha256, sha256Hex } from './sha256';

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
function canonicalHash(value: unknown): string {
  const hash = new Sha256();
  canonicalJsonTo(value, (piece) => hash.updateText(piece));
  return hash.hex();
}

/** The content address of a conversation (without writing anything). */
export function conversationKey(conversation: Conversation): string {
  return ARCHIVE_KEY_PREFIX + canonicalHash(conversation);
}

/** Stores the conversation (if not stored yet) and returns the key undo needs. */
export async function archiveConversation(conversation: Conversation, archive: ArchiveStore): Promise<string> {
  const key = conversationKey(conversation);
  const exact = JSON.stringify(conversation);
  const existing = await archive.get(key);
  if (existing === undefined) {
    await archive.put(key, exact);
    return key;
  }
  if (existing === exact) return key;
  const variant = `${key}.${sha256Hex(exact).slice(0, VARIANT_HASH_CHARS)}`;
  if ((await archive.get(variant)) === undefined) await archive.put(variant, exact);
  return variant;
}

/** The archived conversation, checked against its key: exactly what was archived, or an ArchiveError. */
export async function readArchivedConversation(archiveId: string, archive: ArchiveStore): Promise<Conversation> {
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
  if (ARCHIVE_KEY_PREFIX + canonicalHash(parsed) !== base) {
    throw new ArchiveError(archiveId, `archive entry ${archiveId} does not match its content hash: the archive was changed or corrupted`);
  }
  if (dot >= 0 && sha256Hex(data).slice(0, VARIANT_HASH_CHARS) !== archiveId.slice(dot + 1)) {
    throw new ArchiveError(archiveId, `archive entry ${archiveId} does not match its text hash: the archive was changed or corrupted`);
  }
  return parsed as Conversation;
}
