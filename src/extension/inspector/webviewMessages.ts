// Messages from the webview are checked before anything acts on them: the webview renders
// untrusted conversation text, so the host treats what it posts as input, not as commands it
// can trust. A malformed message is rejected with a reason; it never reaches the service.

import { SECTION_NAMES, type SectionName } from '../../engine/sections';
import type { InspectorEdits, SectionEdits, WebviewRequestType, WebviewToHost } from '../../shared/protocol';

/** A summary section far larger than any summary budget is a mistake, not an edit
 *  (summaryMaxLength tops out in the thousands of tokens; a token is ~4 characters). */
export const MAX_SECTION_CHARS = 200_000;
/** More ids than a conversation could sensibly restore or pin in one go. */
export const MAX_EDIT_IDS = 100_000;

export type ParsedWebviewMessage = { ok: true; message: WebviewToHost } | { ok: false; error: string; id?: number; request?: WebviewRequestType };

const REQUEST_TYPES: readonly WebviewRequestType[] = ['countSections', 'preview', 'apply', 'undo'];
const SECTION_SET: ReadonlySet<string> = new Set(SECTION_NAMES);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseSections(v: unknown, where: string): SectionEdits | string {
  if (!isRecord(v)) return `${where}: expected an object of section texts`;
  const out: SectionEdits = {};
  for (const [name, text] of Object.entries(v)) {
    if (!SECTION_SET.has(name)) return `${where}: "${name.slice(0, 60)}" is not one of the 8 section names`;
    if (typeof text !== 'string') return `${where}["${name}"]: expected a string`;
    if (text.length > MAX_SECTION_CHARS) return `${where}["${name}"]: ${text.length} characters, at most ${MAX_SECTION_CHARS}`;
    out[name as SectionName] = text;
  }
  return out;
}

function parseIds(v: unknown, where: string): string[] | string {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return `${where}: expected a list of message ids`;
  if (v.length > MAX_EDIT_IDS) return `${where}: ${v.length} ids, at most ${MAX_EDIT_IDS}`;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return `${where}[${i}]: expected a message id string`;
  return [...new Set(v as string[])];
}

export function parseEdits(v: unknown, where = 'edits'): InspectorEdits | string {
  if (!isRecord(v)) return `${where}: expected an object`;
  const sections = v.sections === undefined ? {} : parseSections(v.sections, `${where}.sections`);
  if (typeof sections === 'string') return sections;
  const restore = parseIds(v.restore, `${where}.restore`);
  if (typeof restore === 'string') return restore;
  const pin = parseIds(v.pin, `${where}.pin`);
  if (typeof pin === 'string') return pin;
  const unpin = parseIds(v.unpin, `${where}.unpin`);
  if (typeof unpin === 'string') return unpin;
  const offload = parseIds(v.offload, `${where}.offload`);
  if (typeof offload === 'string') return offload;
  if (v.upTo !== undefined && typeof v.upTo !== 'string') return `${where}.upTo: expected a message id string`;
  return { sections, restore, pin, unpin, offload, ...(typeof v.upTo === 'string' ? { upTo: v.upTo } : {}) };
}

/** Checks a raw webview message against the protocol. */
export function parseWebviewMessage(raw: unknown): ParsedWebviewMessage {
  if (!isRecord(raw) || typeof raw.type !== 'string') return { ok: false, error: 'message: expected an object with a string "type"' };
  const type = raw.type;
  if (type === 'ready' || type === 'cancel') return { ok: true, message: { type } };
  if (!(REQUEST_TYPES as readonly string[]).includes(type)) return { ok: false, error: `message: unknown type "${type.slice(0, 40)}"` };
  const request = type as WebviewRequestType;
  if (typeof raw.id !== 'number' || !Number.isSafeInteger(raw.id) || raw.id < 0) {
    return { ok: false, error: `${request}: expected a non-negative integer "id"`, request };
  }
  const id = raw.id;
  const fail = (error: string): ParsedWebviewMessage => ({ ok: false, error, id, request });
  switch (request) {
    case 'undo':
      return { ok: true, message: { type: 'undo', id } };
    case 'countSections': {
      const sections = parseSections(raw.sections, 'countSections.sections');
      return typeof sections === 'string' ? fail(sections) : { ok: true, message: { type: 'countSections', id, sections } };
    }
    case 'preview':
    case 'apply': {
      const edits = parseEdits(raw.edits, `${request}.edits`);
      return typeof edits === 'string' ? fail(edits) : { ok: true, message: { type: request, id, edits } };
    }
  }
}

/** Ids the edits name that the conversation does not hold (the webview's view may be stale). */
export function unknownIds(edits: InspectorEdits, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const id of [...edits.restore, ...edits.pin, ...edits.unpin, ...edits.offload, ...(edits.upTo !== undefined ? [edits.upTo] : [])])
    if (!known.has(id)) out.push(id);
  return out;
}
