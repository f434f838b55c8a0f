// Codex 0.171 rollouts read as Codex sends them: on a rollout the real Codex 0.171.0 wrote
// (fixtures/codex-0.171.0-rollout.jsonl: two `codex exec` turns with a tool call each), user turns
// come from `item_completed` UserMessage events (there is no `user_message` event any more), the
// title is the first of them, session_meta's base instructions are the first thing counted (Codex
// sends them first), the model and the last request's usage are read, and nothing is reported as
// unknown. Record types this version does not know are counted when they are sent and named once.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_BASE_INSTRUCTIONS_ID, importCodex } from '../../../src/engine/conversation/importers/codex';
import { messageText } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { jsonl } from '../../helpers/agentSessions';
import { fixturesDir } from '../../helpers/transcripts';

const REAL = readFileSync(join(fixturesDir, 'codex-0.171.0-rollout.jsonl'), 'utf8');
const realLines = REAL.split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });

describe('a rollout the real Codex 0.171.0 wrote', () => {
  const { conversation, warnings } = importCodex(REAL, { sourcePath: 'rollout.jsonl' });
  const meta = realLines[0]!.payload;

  it('has no user_message event: its user turns are item_completed UserMessage events, read as the person’s', () => {
    expect(realLines.some((l) => l.type === 'event_msg' && l.payload['type'] === 'user_message')).toBe(false);
    const people = conversation.messages.filter((m) => m.itemType === 'USER_MESSAGE').map(messageText);
    expect(people).toEqual(['TURN-alpha read notes', 'TURN-bravo read notes']);
    expect(conversation.meta.title).toBe('TURN-alpha read notes');
  });

  it('counts the base instructions first, as Codex sends them, and reads the session facts', async () => {
    const first = conversation.messages[0]!;
    expect(first).toMatchObject({ role: 'system', itemType: 'SYSTEM_PROMPT', source: { sourceId: CODEX_BASE_INSTRUCTIONS_ID, line: 1 } });
    expect(messageText(first)).toBe((meta['base_instructions'] as { text: string }).text);
    const counter = await createTokenCounter(conversation.meta.model);
    expect(counter.countMessage(first)).toBeGreaterThan(4000);
    expect(conversation.meta).toMatchObject({ sessionId: meta['id'], cwd: meta['cwd'], agentVersion: '0.171.0', modelProvider: 'fake', model: 'm' });
  });

  it('reads the last request’s usage from the last token_count, answered by the last assistant message', () => {
    const counts = realLines.filter((l) => l.type === 'event_msg' && l.payload['type'] === 'token_count');
    const last = (counts.at(-1)!.payload['info'] as { last_token_usage: { input_tokens: number } }).last_token_usage.input_tokens;
    const usage = conversation.meta.reportedUsage!;
    expect(usage.tokens).toBe(last);
    const answer = conversation.messages.find((m) => m.id === usage.atMessageId)!;
    expect(messageText(answer)).toMatch(/^The notes say:/);
  });

  it('knows every record type it holds (world_state, token_usage_record, thread_settings_applied, item_completed …)', () => {
    expect(warnings.filter((w) => /does not know/.test(w.message))).toEqual([]);
  });
});

describe('record types from a newer Codex', () => {
  const ts = (i: number) => new Date(Date.UTC(2026, 10, 27, 0, 0, i)).toISOString();
  const lines = [
    { timestamp: ts(0), ordinal: 0, type: 'session_meta', payload: { id: 't1', timestamp: ts(0), cwd: '/w', cli_version: '0.180.0' } },
    { timestamp: ts(1), ordinal: 1, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'draw it' }] } },
    {
      timestamp: ts(2),
      ordinal: 2,
      type: 'response_item',
      payload: { type: 'hologram_call', id: 'h1', status: 'completed', prompt: 'a cube, rotating', encrypted_content: 'QUJD' },
    },
    { timestamp: ts(3), ordinal: 3, type: 'event_msg', payload: { type: 'hologram_rendered', frames: 12 } },
    { timestamp: ts(4), ordinal: 4, type: 'event_msg', payload: { type: 'hologram_rendered', frames: 13 } },
    { timestamp: ts(5), ordinal: 5, type: 'presence_state', payload: { away: true } },
    { timestamp: ts(6), ordinal: 6, type: 'response_item', payload: { type: 'ghost_snapshot', ghost_commit: { id: 'abc' } } },
    {
      timestamp: ts(7),
      ordinal: 7,
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Drawn.' }] },
    },
  ];
  const { conversation, warnings } = importCodex(jsonl(lines));

  it('a new response item is sent, so its text is counted in its turn (ids and encrypted blobs aside); what Codex never sends is not', () => {
    const turn = conversation.messages.find((m) => m.role === 'assistant')!;
    expect(messageText(turn)).toBe('[hologram_call] {"type":"hologram_call","prompt":"a cube, rotating"}\nDrawn.');
    expect(JSON.stringify(conversation.messages)).not.toContain('ghost_commit');
  });

  it('one warning names every new type, with how many and what was done with it', () => {
    const news = warnings.filter((w) => /does not know/.test(w.message));
    expect(news).toEqual([
      {
        position: 'file',
        message:
          'record types this version of ctxc does not know, from a newer Codex: response items hologram_call (1) (sent to the model: their text is counted); events hologram_rendered (2) (not sent: skipped); lines presence_state (1) (not sent: skipped)',
      },
    ]);
  });
});
