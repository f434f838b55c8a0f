// What the summary says about events an agent must know when it continues: a tool call the
// person declined is an event (not an error, not nothing, and its file was not written); the
// latest request still being worked on is pending even when it is kept verbatim after the
// summary; Current Work does not name a failed step that later ran clean as where work stands.

import { describe, expect, it } from 'vitest';
import { isDeclinedResult } from '../../../src/engine/analyze/toolKinds';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { ConversationBuilder } from '../../helpers/compactorFixtures';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf } from '../../../src/engine/compactor';
import { parseSummary } from '../../../src/engine/segments/parseSummary';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';

describe('a declined tool call', () => {
  it('is recognised across the agents’ wordings, and only those', () => {
    for (const t of [
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
      "[write_to_file for 'src/a.ts'] Result: The user denied this operation.",
      'exec command rejected by user',
      'patch rejected by user',
      'User rejected the edit to go.mod',
      'Tool call was cancelled by the user.',
    ])
      expect(isDeclinedResult(t), t).toBe(true);
    for (const t of ['Error: permission denied', 'rejected promise in src/user.ts', 'The user module was loaded.', 'OK'])
      expect(isDeclinedResult(t), t).toBe(false);
  });

  it('is listed in Errors and fixes as what it is, with what the person said next, and its file is not "edited"', () => {
    const b = new ConversationBuilder()
      .user('Bump the Go version to 1.23.')
      .tool(
        'Edit',
        { file_path: '/w/go.mod', old_string: 'go 1.21', new_string: 'go 1.23' },
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
        {
          isError: true,
        },
      )
      .user('No, keep go.mod as it is; only change the Dockerfile.')
      .tool('Edit', { file_path: '/w/Dockerfile', old_string: 'golang:1.21', new_string: 'golang:1.23' }, 'ok')
      .assistant('Updated the Dockerfile to golang:1.23.');
    const { sections } = extractSections(b.messages, undefined, 4000);
    expect(sections['Errors and fixes']).toContain(
      '- User rejected `Edit /w/go.mod` — not applied; the user then said: “No, keep go.mod as it is; only change the Dockerfile.”',
    );
    expect(sections['Errors and fixes']).not.toContain("doesn't want to proceed");
    expect(sections['Files and Code Sections']).toContain('`/w/Dockerfile` — edited');
    expect(sections['Files and Code Sections']).not.toMatch(/`\/w\/go\.mod` — edited/);
  });
});

describe('the latest request and Current Work', () => {
  const b = new ConversationBuilder()
    .user('Make the build pass.')
    .tool('Bash', { command: 'npm run build' }, 'error TS2345: Argument of type string is not assignable to number.', { isError: true })
    .tool('Edit', { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' }, 'ok')
    .tool('Bash', { command: 'npm run build' }, 'Build finished in 2.1s')
    .assistant('The build passes now.')
    .user('Now add a test for parseArgs in test/args.test.ts.')
    .tool('Read', { file_path: 'src/args.ts' }, 'export function parseArgs() {}');
  const all = b.messages;
  const analyses = analyzeConversation(all).messages;

  it('a request kept verbatim after the summary and not done is still pending, and Current Work points to it', () => {
    // The span ends before the latest request; the request and the read after it are kept.
    const span = all.slice(0, 8);
    const after = { messages: all.slice(8), analyses: analyses.slice(8) };
    const { sections } = extractSections(span, analyses.slice(0, 8), 4000, { after });
    expect(sections['Pending Tasks']).toContain(
      'Latest request (kept verbatim after this summary), still being worked on: Now add a test for parseArgs in test/args.test.ts.',
    );
    expect(sections['Current Work']).toContain(
      'Working on the latest request, kept verbatim after this summary with the latest work: Now add a test for parseArgs in test/args.test.ts.',
    );
  });

  it('a failed step that later ran clean is said to have', () => {
    const { sections } = extractSections(all.slice(0, 9), analyses.slice(0, 9), 4000);
    expect(sections['Current Work']).toMatch(/`npm run build` → failed: `error TS2345: [^`]*` \(ran clean later\)/);
  });
});

describe('a task kept verbatim after the summary', () => {
  it('is still named by Primary Request and Intent', async () => {
    const b = new ConversationBuilder().user('Port the parser to the new tokenizer API and keep the old one working.');
    for (let k = 0; k < 12; k++) b.tool('Bash', { command: `pytest tests/test_parser.py -k case${k}` }, `case ${k} passed\n`.repeat(30));
    const r = await compactConversation(b.build(), { counter: await createTokenCounter('gpt-4o'), archive: new MemoryArchive(), ratio: 0.3 });
    expect(r.conversation.messages).toContain(b.messages[0]);
    expect(parseSummary(summaryTextOf(r.conversation)!).sections['Primary Request and Intent']).toContain(
      'Initial request (kept verbatim after this summary): Port the parser to the new tokenizer API and keep the old one working.',
    );
  });
});
