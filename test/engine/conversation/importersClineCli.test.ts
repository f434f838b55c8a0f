// Cline CLI 3.x sessions (`<id>.messages.json`) read as the CLI sends them: checked against the
// requests the real Cline CLI 3.0.65 sent for the captured sessions (test/fixtures/cline-cli/: a
// file read with `read_files`; commands run with `run_commands`, one of them failing) — the system
// prompt counted, the person's words without their `<user_input>` wrapper, a tool result's
// `{query, result, success}` list as its JSON text — and metered from the usage Cline recorded on
// every answer (`metrics`), within ±5 % of its last request. Before, the same sessions read as
// Anthropic messages counted about a tenth of that.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromAnthropicValue } from '../../../src/engine/conversation/importers/anthropic';
import { unwrapClineUserText } from '../../../src/engine/conversation/importers/clineCli';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { messageText, type Message } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../../src/engine/tokens/report';
import { repoRoot } from '../../helpers/transcripts';

const dir = join(repoRoot, 'test', 'fixtures', 'cline-cli');
const SESSIONS = { alphaAfterTool: '1795740281918_5woes', bravoAfterTool: '1795740290323_o2d5w' } as const;
const fileOf = (id: string) => join(dir, id, `${id}.messages.json`);
interface Sent {
  role: string;
  content?: string | null;
  contentSha256?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
const requests = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8')) as Record<string, { messages: Sent[] }>;

function asWire(messages: readonly Message[]): Sent[] {
  return messages.map((m) => {
    if (m.role === 'system') return { role: 'system', contentSha256: createHash('sha256').update(messageText(m)).digest('hex') };
    if (m.role === 'tool') return { role: 'tool', content: messageText(m), tool_call_id: m.toolResult!.toolCallId };
    if (m.role === 'user') return { role: 'user', content: messageText(m) };
    return {
      role: 'assistant',
      content: messageText(m) || null,
      ...(m.toolCalls ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.arguments } })) } : {}),
    };
  });
}

function wireOf(sent: readonly Sent[]): Sent[] {
  return sent.map((m) => ({
    role: m.role,
    ...(m.role === 'system' ? { contentSha256: m.contentSha256! } : { content: m.content ?? null }),
    ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, function: { name: c.function.name, arguments: c.function.arguments } })) } : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  }));
}

describe('Cline CLI sessions captured from the real CLI', () => {
  for (const [name, id] of Object.entries(SESSIONS)) {
    it(`${id}: sends what the real CLI sent (system prompt, unwrapped request, the tool result's JSON)`, () => {
      const text = readFileSync(fileOf(id), 'utf8');
      expect(detectFormat(text, fileOf(id))).toBe('cline');
      const conv = importTranscript(text, { sourcePath: fileOf(id) }).conversation;
      expect(conv.format).toBe('cline');
      expect(conv.meta).toMatchObject({ sessionId: id, agentVersion: '3.0.65', model: 'fake-model' });
      // The captured request is the one that answered the tool result: everything but the last answer.
      expect(asWire(conv.messages.slice(0, -1))).toEqual(wireOf(requests[name]!.messages));
    });
  }

  it('meters from the last answer’s metrics, within ±5 % of it; read as plain Anthropic messages it was about a tenth', async () => {
    for (const id of Object.values(SESSIONS)) {
      const value = JSON.parse(readFileSync(fileOf(id), 'utf8')) as { messages: { metrics?: { inputTokens: number } }[] };
      const recorded = value.messages.filter((m) => m.metrics).at(-1)!.metrics!.inputTokens;
      const conv = importTranscript(JSON.stringify(value)).conversation;
      expect(conv.meta.reportedUsage).toMatchObject({ tokens: recorded, source: 'cline', atMessageId: conv.messages.at(-1)!.id });
      const counter = await createTokenCounter(conv.meta.model);
      const total = tokenReport(conv.messages, counter, conv.meta).total;
      expect(Math.abs(total - recorded)).toBeLessThanOrEqual(recorded * 0.05);
      // The old reading: no system prompt, the tool results as "[(no type) block]", no usage.
      const old = fromAnthropicValue(value).conversation;
      expect(tokenReport(old.messages, counter, old.meta).total).toBeLessThan(recorded / 5);
    }
  });

  it("keeps Cline's convention for the parts: input is what the cache neither read nor wrote", () => {
    const value = {
      version: 1,
      agent: 'lead',
      sessionId: 's',
      messages: [
        { role: 'user', content: [{ type: 'text', text: '<user_input mode="act">hi there</user_input>' }] },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'hello' }],
          metrics: { inputTokens: 4400, outputTokens: 7, cacheReadTokens: 3000, cacheWriteTokens: 400 },
        },
      ],
    };
    expect(importTranscript(JSON.stringify(value)).conversation.meta.reportedUsage).toMatchObject({
      tokens: 4400,
      parts: { input: 1000, cacheRead: 3000, cacheWrite: 400, output: 7 },
    });
  });
});

describe("the person's text as the CLI sends it", () => {
  it('unwraps <user_input> and <user_command>, in any mode, and leaves other text alone', () => {
    expect(unwrapClineUserText('<user_input mode="act">fix the tests</user_input>')).toBe('fix the tests');
    expect(unwrapClineUserText('<user_input mode="plan">\n  plan it\n</user_input>')).toBe('plan it');
    expect(unwrapClineUserText('<user_command slash="team">spawn a team</user_command>')).toBe('spawn a team');
    expect(unwrapClineUserText('<user_input mode="act">cut off')).toBe('cut off');
    expect(unwrapClineUserText('plain words <b>kept</b>')).toBe('plain words <b>kept</b>');
  });
});
