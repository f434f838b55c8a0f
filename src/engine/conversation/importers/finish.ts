// The last step every importer shares: make tool calls and results pair up, mark pinned
// messages, and give every message its stable id.

import { derivedMessageId, IdAllocator } from '../ids';
import type { ConversationMeta, ImportResult, ImportWarning, Message, SourceFormat } from '../model';
import { hash64 } from '../../text/hash';
import { addPairingTally, emptyPairingTally, pairingWarnings, pairToolCalls, repairToolPairing, type MessageDraft } from './toolPairing';

/** `<pin>…</pin>` anywhere in a message's text pins it: never summarized or dropped. */
const PIN = /<pin>[\s\S]*?<\/pin>/;

export interface FinishOptions {
  format: SourceFormat;
  meta: ConversationMeta;
  warnings: ImportWarning[];
}

export function finishImport(drafts: MessageDraft[], opts: FinishOptions): ImportResult {
  const paired = repairToolPairing(drafts, opts.format, opts.warnings);
  const messages = toMessages(paired, new IdAllocator(), 0);
  return finished(messages, idsDigest(messages), opts);
}

/** finishImport for a conversation read as it grows (a live session), in O(what changed): each call
 *  gives the drafts of the call before (the same objects) with new ones after them, the last of
 *  them possibly changed (an assistant reply streamed over several lines). Drafts before the cut are
 *  final: their messages, ids and pairing tally are kept, and only the drafts from the cut on are
 *  paired and made messages again. After each call the cut moves up to the last ordinary draft (not
 *  a tool result) that no later result answers a call before: a tool call still waiting for its
 *  result, and the last draft, stay open. A new result that answers a call already final (a result
 *  arriving after the conversation moved on, which the full import moves up to its call) cannot be
 *  paired from here: the call returns undefined and the caller finishes the whole list again. */
export class GrowingFinish {
  private readonly final: Message[] = [];
  private readonly ids = new Set<string>();
  private readonly pairing = emptyPairingTally();
  private cut = 0;
  /** idsDigest of `final`, kept (the conversation's id hashes every message id). */
  private finalDigest = '';

  /** finishImport(drafts, opts), or undefined when it must be made from scratch: a draft before the
   *  cut changed (`same`: how many first drafts are the previous call's) or a result answers a final call. */
  finish(drafts: readonly MessageDraft[], same: number, opts: FinishOptions): ImportResult | undefined {
    if (same < this.cut) return undefined;
    const open = drafts.slice(this.cut);
    const run = pairToolCalls(open, opts.format, this.pairing);
    if (run.answersBefore > 0) return undefined;
    const fresh = toMessages(run.drafts, new IdAllocator(this.ids), this.final.length);
    opts.warnings.push(...pairingWarnings([this.pairing, run.tally()]));
    const result = finished(this.final.concat(fresh), this.finalDigest + idsDigest(fresh), opts, true);

    let minAnswered = Number.POSITIVE_INFINITY;
    let k = open.length - 1;
    for (; k > 0; k--) {
      if (!open[k]!.toolResult && minAnswered >= k) break;
      if (run.answers[k]! >= 0) minAnswered = Math.min(minAnswered, run.answers[k]!);
    }
    if (k > 0) {
      addPairingTally(this.pairing, run.tally(0, k));
      for (const m of fresh.slice(0, run.starts[k]!)) {
        this.final.push(m);
        this.ids.add(m.id);
        this.finalDigest += `\u0000${m.id}`;
      }
      this.cut += k;
    }
    return result;
  }
}

/** The messages of paired drafts that come after `offset` messages, their ids from `ids`. */
function toMessages(paired: readonly MessageDraft[], ids: IdAllocator, offset: number): Message[] {
  return paired.map((d, i) => {
    const text = draftText(d);
    const wanted = d.source?.sourceId ?? derivedMessageId(offset + i, d.role, text);
    const m: Message = { id: ids.take(wanted), ...d };
    if (!m.pinned && PIN.test(text)) m.pinned = true;
    return m;
  });
}

/** The part of the conversation id's digest the messages' ids make. */
function idsDigest(messages: readonly Message[]): string {
  let out = '';
  for (const m of messages) out += `\u0000${m.id}`;
  return out;
}

/** The import of `messages`; its conversation id hashes the format, the count and every id (`ids`:
 *  idsDigest of them). `lazy`: hashed when first read — a live session is imported at every append
 *  and its id is seldom read, and the hash is O(messages) (the count comes first: it cannot be
 *  carried on from the last import). The property reads and copies as a plain one. */
function finished(messages: Message[], ids: string, opts: FinishOptions, lazy = false): ImportResult {
  const id = () => `${opts.format}-${hash64(`${opts.format}\u0000${messages.length}${ids}`)}`;
  const conversation = { id: lazy ? '' : id(), format: opts.format, messages, meta: opts.meta };
  if (lazy) {
    Object.defineProperty(conversation, 'id', {
      enumerable: true,
      configurable: true,
      get(this: typeof conversation) {
        const value = id();
        Object.defineProperty(this, 'id', { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
    });
  }
  return { conversation, warnings: opts.warnings };
}

function draftText(d: MessageDraft): string {
  let out = '';
  for (const p of d.content) if (p.type === 'text' || p.type === 'thinking') out += p.text;
  if (d.toolCalls) for (const c of d.toolCalls) out += c.name + c.arguments;
  return out;
}
