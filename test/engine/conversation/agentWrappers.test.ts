// Reading the agents' files right where they wrap or surround the conversation: the Codex IDE
// extension's request inside its context block (and beside an environment block in one message),
// and Claude Code's title lines of other sessions, which are no compactions.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf } from '../../../src/engine/compactor';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { transcriptPath } from '../../helpers/transcripts';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { isUserAuthored, messageText } from '../../../src/engine/conversation/model';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { claudeLines, codexLines, jsonl } from '../../helpers/agentSessions';

const IDE_REQUEST = [
  '# Context from my IDE setup:',
  '',
  '## Active file: src/app.ts',
  '',
  '## Open tabs:',
  '- app.ts: src/app.ts',
  '- README.md: README.md',
  '',
  '## My request for Codex:',
  'Add a health check endpoint at /healthz that returns the git sha.',
].join('\n');

describe('Codex IDE extension rollouts', () => {
  // The IDE extension sends the environment block and the request as two parts of one message,
  // and records the request (with its IDE block) as the user_message event.
  const lines = codexLines({
    id: '019a0000-0000-7000-8000-000000000001',
    cwd: '/w',
    turns: [{ user: 'later: run the tests', tool: { name: 'shell', input: { command: 'npm test' }, output: 'ok' }, answer: 'All green.' }],
  });
  lines.splice(
    4,
    0,
    { timestamp: '2026-01-01T00:00:04.000Z', type: 'event_msg', payload: { type: 'user_message', message: IDE_REQUEST, images: [] } },
    {
      timestamp: '2026-01-01T00:00:04.000Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' },
          { type: 'input_text', text: IDE_REQUEST },
        ],
      },
    },
  );
  const { conversation } = importTranscript(jsonl(lines), { sourcePath: 'rollout.jsonl' });

  it('reads the person’s part of a message that also holds the environment block', () => {
    const authored = conversation.messages.filter(isUserAuthored).map(messageText);
    expect(authored[0]).toBe(IDE_REQUEST);
    expect(conversation.messages.some((m) => m.itemType === 'SKILL_METADATA' && messageText(m).startsWith('<environment_context>'))).toBe(true);
  });

  it('summarizes the request under the heading, never the tabs', () => {
    const { sections } = extractSections(conversation.messages, undefined, 4000);
    expect(sections['Primary Request and Intent']).toContain('Initial request: Add a health check endpoint at /healthz that returns the git sha.');
    expect(sections['All user messages'].split('\n')[0]).toBe('- Add a health check endpoint at /healthz that returns the git sha.');
    expect(sections['All user messages']).not.toContain('Open tabs');
    // The open tabs are not files the person named.
    expect(sections['Files and Code Sections']).not.toContain('README.md');
  });
});

describe('Claude Code title lines', () => {
  it('the shared d-kimuson session opens with another session’s title: neither its title nor an earlier summary', async () => {
    const file = transcriptPath('claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    const conv = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation;
    expect(conv.meta.title).toBeUndefined();
    const r = await compactConversation(conv, { counter: await createTokenCounter('gpt-4o'), archive: new MemoryArchive(), ratio: 0.1 });
    expect(r.compactionCount).toBe(1);
    expect(summaryTextOf(r.conversation)).not.toContain('Empty Repo Setup');
    expect(r.warnings.filter((w) => w.code === 'manyCompactions')).toEqual([]);
  });

  const own = claudeLines({
    sessionId: 's1',
    cwd: '/w',
    turns: [{ user: 'fix the build', tool: { name: 'Bash', input: { command: 'npm run build' }, output: 'ok' }, answer: 'Fixed.' }],
  });
  const leaf = own[own.length - 1]!['uuid'] as string;
  const others = Array.from({ length: 16 }, (_, i) => ({
    type: 'summary',
    summary: `Other session ${i + 1}`,
    leafUuid: `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`,
  }));

  for (const wholeFile of [false, true]) {
    it(`are titles, not compactions${wholeFile ? ' (whole file)' : ''}: only this session’s own titles it`, () => {
      const withOwn = jsonl([...others, { type: 'summary', summary: 'Fix the build', leafUuid: leaf }, ...own]);
      const a = importTranscript(withOwn, { sourcePath: 's1.jsonl', wholeFile }).conversation;
      expect(a.messages.filter((m) => m.itemType === 'COMPACTION_SUMMARY')).toEqual([]);
      expect(a.meta.title).toBe('Fix the build');
      const b = importTranscript(jsonl([...others, ...own]), { sourcePath: 's1.jsonl', wholeFile }).conversation;
      expect(b.meta.title).toBeUndefined();
      const { sections, previousCompactions } = extractSections(b.messages, undefined, 2000);
      expect(previousCompactions).toBe(0);
      expect(sections['Primary Request and Intent']).not.toContain('Earlier summary');
    });
  }
});

describe('Codex shell calls and outputs', () => {
  const lines = codexLines({ id: '019a0000-0000-7000-8000-000000000002', cwd: '/w', turns: [] });
  const call = (call_id: string, payload: Record<string, unknown>, output: string) => [
    { timestamp: '2026-01-01T00:00:10.000Z', type: 'response_item', payload: { type: 'function_call', call_id, ...payload } },
    { timestamp: '2026-01-01T00:00:11.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id, output } },
  ];
  lines.push(
    { timestamp: '2026-01-01T00:00:09.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'fix the lint errors', images: [] } },
    {
      timestamp: '2026-01-01T00:00:09.000Z',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the lint errors' }] },
    },
    ...call(
      'c1',
      { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', "sed -n '1,80p' src/lib/auth.ts"] }) },
      JSON.stringify({ output: 'export const auth = 1;', metadata: { exit_code: 0 } }),
    ),
    ...call(
      'c2',
      { name: 'shell', arguments: JSON.stringify({ command: ['powershell.exe', '-Command', 'pnpm lint'] }) },
      JSON.stringify({ output: "error TS2339: Property 'members' does not exist on type 'Team'.\nsrc/lib/auth.ts:3:7", metadata: { exit_code: 1 } }),
    ),
  );
  const { conversation } = importTranscript(jsonl(lines), { sourcePath: 'rollout.jsonl' });

  it('a shell given a script is read by its script, and its JSON output by its text and exit code', () => {
    const results = conversation.messages.filter((m) => m.toolResult);
    expect(messageText(results[0]!)).toBe('export const auth = 1;');
    expect(results[1]!.toolResult!.isError).toBe(true);
    const { sections } = extractSections(conversation.messages, undefined, 4000);
    expect(sections['Files and Code Sections']).toContain('`src/lib/auth.ts` — read');
    expect(sections['Errors and fixes']).toContain("`error TS2339: Property 'members' does not exist on type 'Team'.` from `pnpm lint`");
  });
});
