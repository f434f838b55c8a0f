// A compacted conversation as a new opencode session: the file `opencode import` takes
// (engine/conversation/exporters/opencodeSession.ts), written to a private temporary file that
// register.ts hands to opencode and then removes. The session lives in opencode's database from
// then on, named `<database>#<session id>` like every stored session.

import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opencodeSession, type OpencodeModelRef } from '../../../engine/conversation/exporters/opencodeSession';
import { isUserAuthored, messageText, type Conversation } from '../../../engine/conversation/model';
import type { CompactionResult } from '../../../engine/result';
import { titleText } from '../../agentSession';
import type { SessionFile, WriteContext } from '../agent';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let lastMs = 0;
let counter = 0;

/**
 * An id as opencode 1.18.33 makes them: the prefix, 12 hex digits of (milliseconds × 4096 + a
 * counter within the millisecond) — complemented for sessions, so the newest sorts first — and 14
 * random letters and digits. Each id is later than the one before (the counter carries on when the
 * clock does not move or goes back), as opencode orders messages and parts by id.
 */
export function opencodeId(prefix: 'ses' | 'msg' | 'prt', descending = false, now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  }
  counter++;
  let v = BigInt(lastMs) * 0x1000n + BigInt(counter);
  if (descending) v = ~v;
  let hex = '';
  for (let i = 0; i < 6; i++)
    hex += Number((v >> BigInt(40 - 8 * i)) & 0xffn)
      .toString(16)
      .padStart(2, '0');
  return `${prefix}_${hex}${Array.from(randomBytes(14), (b) => BASE62[b % 62]).join('')}`;
}

/** The model of a session written from another agent's, chosen when it is imported (register.ts). */
export const MODEL_TO_CHOOSE: OpencodeModelRef = { providerID: '', modelID: '' };

export function opencodeSessionFile(original: Conversation, result: CompactionResult, ctx: WriteContext, verifiedVersion: string): SessionFile | undefined {
  const sameAgent = original.format === 'opencode';
  const id = opencodeId('ses', true, ctx.now.getTime());
  const model =
    sameAgent && original.meta.model && original.meta.modelProvider
      ? { providerID: original.meta.modelProvider, modelID: original.meta.model }
      : MODEL_TO_CHOOSE;
  const firstRequest = original.messages.find((m) => isUserAuthored(m) && messageText(m).trim() !== '');
  const named = original.meta.title ?? (firstRequest ? messageText(firstRequest) : 'session');
  const session = opencodeSession(result.conversation, {
    sessionId: id,
    cwd: ctx.cwd,
    version: (sameAgent ? original.meta.agentVersion : undefined) ?? verifiedVersion,
    model,
    title: titleText(`${titleText(named).slice(0, 80)} (compacted)`),
    from: {
      ...(original.meta.sessionId ? { sessionId: original.meta.sessionId } : {}),
      ...(ctx.sourceFile ? { file: ctx.sourceFile } : {}),
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      inherited: ctx.inherited,
    },
    now: ctx.now,
    newId: (kind) => opencodeId(kind),
  });
  if (!session) return undefined;
  return { id, file: join(tmpdir(), `ctxc-opencode-import-${id}.json`), text: session.text, notes: session.notes };
}
