// The extractive summary read as a person reads it, on small conversations written for the
// purpose: a pasted prompt is not twenty requests, shouting is not a concept, no "- - " bullets,
// announcements are not work done, Current Work shows the answer and not the reasoning or the
// tool's bookkeeping, and an answer to a yes/no prompt is not a request.

import { describe, expect, it } from 'vitest';
import { splitPasted, requestWords } from '../../../src/engine/analyze/pasted';
import { importAider } from '../../../src/engine/conversation/importers/aider';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { listItem } from '../../../src/engine/text/textCut';
import { splitInlineReasoning } from '../../../src/engine/text/reasoning';
import { ConversationBuilder } from '../../helpers/compactorFixtures';

/** A prompt of rules with headings and shouted words, as people paste from their notes. */
function analyzerPrompt(): string {
  const rules: string[] = ['You are the Analyzer Agent (Cross-Service Investigator, Staff Architect). Your goals:', ''];
  for (let i = 1; i <= 6; i++) {
    rules.push(`SECTION ${i} ALGORITHM`, '');
    rules.push(`YOU DO NOT write final code in step ${i}; you MUST ALWAYS check the merged MR BEFORE you start.`);
    rules.push(`If the claim is not proven within 2 searches, mark it UNVERIFIED and escalate to the orchestrator (rule ${i}).`);
    rules.push(`Format: CRITICAL / SIGNIFICANT / MINOR, each item with file:line and a fix suggestion, because reviewers need it.`);
    rules.push(`Run the PRE-CODE AWARENESS procedure, the root cause must be traced with RCA before anything else.`);
    rules.push(`TODO: the remaining checks of part ${i} need to be listed in the report.`, '');
  }
  return rules.join('\n');
}

const OWN_WORDS = 'Look at the hotkey and push-to-talk: the same text is inserted every time, maybe a bug. Follow the prompt below';

function pastedSession(): ConversationBuilder {
  return new ConversationBuilder()
    .user('Add a settings page for the LLM provider.')
    .assistant('I added the settings page; the LLM provider is read from IAppSettings because the host already injects it.')
    .user(`${OWN_WORDS} - ${analyzerPrompt()}`)
    .tool('Read', { file_path: 'src/hotkey/NativeHelperClient.ts' }, 'export class NativeHelperClient {}')
    .assistant('The issue is that the overlay state is never reset after injectText, so the cached text is sent again.');
}

describe('a pasted document is not twenty requests', () => {
  it("splits a long message into the person's words and the pasted body, at a role-prompt opener", () => {
    const parts = splitPasted(`${OWN_WORDS} - ${analyzerPrompt()}`);
    expect(parts.own).toBe(OWN_WORDS);
    expect(parts.pasted?.kind).toBe('prompt');
    expect(parts.pasted?.opening.startsWith('You are the Analyzer Agent')).toBe(true);
    expect(requestWords(parts, 400)).toMatch(
      /^Look at the hotkey .* Follow the prompt below \[pasted prompt: “You are the Analyzer Agent .*” \(\d+ lines\)\]$/,
    );
    // A short message is all the person's own words.
    expect(splitPasted('Please fix the login test.\nIt fails on Safari.')).toEqual({ own: 'Please fix the login test.\nIt fails on Safari.' });
    // A message that opens with the structure itself is all paste.
    const issue = `<pr_description>\nConsider the following PR description:\n${'The TIME_ZONE setting is ignored on SQLite when dates are compared.\n'.repeat(40)}</pr_description>`;
    expect(splitPasted(issue).own).toBe('');
    expect(requestWords(splitPasted(issue), 240)).toContain('[pasted text: “Consider the following PR description: The TIME_ZONE setting is ignored');
  });

  it("Primary Request gives the person's words and the paste's gist, never the paste's rules", () => {
    const { sections } = extractSections(pastedSession().messages, undefined, 5000);
    const primary = sections['Primary Request and Intent'];
    expect(primary).toContain(`- ${OWN_WORDS} [pasted prompt: “You are the Analyzer Agent`);
    for (const rule of ['YOU DO NOT write final code', 'ALGORITHM', 'Format: CRITICAL', 'UNVERIFIED', 'PRE-CODE']) expect(primary).not.toContain(rule);
  });

  it('Problem Solving and Pending Tasks do not restate the pasted rules', () => {
    const { sections } = extractSections(pastedSession().messages, undefined, 5000);
    const problem = sections['Problem Solving'];
    expect(problem).toContain('The issue is that the overlay state is never reset after injectText');
    for (const rule of ['because reviewers need it', 'root cause must be traced', 'User:']) expect(problem).not.toContain(rule);
    expect(sections['Pending Tasks']).not.toContain('remaining checks');
    // The whole message is still in "All user messages", from its first words.
    expect(sections['All user messages']).toContain(`- ${OWN_WORDS} - You are the Analyzer Agent`);
  });

  it('the facts of a paste live with the message in "All user messages", more of them than for a typed message', () => {
    const article = Array.from(
      { length: 80 },
      (_, i) => `- Article ${i + 1} of the Regulation sets a limit of ${i + 13} days for requests from Member States.`,
    ).join('\n');
    const b = new ConversationBuilder().user(`what does this article say about the limits?\n\n${article}`).assistant('It sets limits per article.');
    const users = extractSections(b.messages, undefined, 20000).sections['All user messages'];
    const quoted = /Key sentences further on: (.*)$/m.exec(users)?.[1] ?? '';
    expect(quoted.match(/“/g)?.length).toBe(8);
    expect(quoted).not.toContain('“- '); // quoted without the list marker
    // A long message typed in a few paragraphs quotes three.
    const typed = Array.from({ length: 8 }, (_, p) =>
      Array.from({ length: 10 }, (_, i) => `In paragraph ${p} I note that Article ${p * 10 + i} sets ${i + 13} days.`).join(' '),
    ).join('\n');
    const typedUsers = extractSections(new ConversationBuilder().user(typed).assistant('Noted.').messages, undefined, 20000).sections['All user messages'];
    expect((/Key sentences further on: (.*)$/m.exec(typedUsers)?.[1] ?? '').match(/“/g)?.length).toBe(3);
  });

  it('one long message gives at most a few requirement sentences and a few Problem Solving sentences', () => {
    const many = Array.from({ length: 12 }, (_, i) => `The exporter must keep field ${i} because downstream parser ${i} reads it.`).join(' ');
    const b = new ConversationBuilder()
      .user('Build the CSV exporter.')
      .assistant('Done.')
      .user(many)
      .assistant(Array.from({ length: 12 }, (_, i) => `Column ${i} was dropped because the header map skipped it.`).join(' '));
    const { sections } = extractSections(b.messages, undefined, 20000);
    const requirements = sections['Primary Request and Intent'].split('\n').filter((l) => l.includes('The exporter must keep field'));
    expect(requirements).toHaveLength(3);
    const problem = sections['Problem Solving'].split('\n');
    expect(problem.filter((l) => l.includes('was dropped because'))).toHaveLength(3);
    expect(problem.filter((l) => l.includes('must keep field'))).toHaveLength(3);
  });
});

describe('shouting is not a concept', () => {
  it('leaves out capitals written for emphasis and keeps acronyms and identifiers', () => {
    const b = new ConversationBuilder()
      .user(`${OWN_WORDS} - ${analyzerPrompt()}`)
      .assistant('The LLM call goes over HTTP; the AST of the handler shows IAppSettings is read once. See `TIMEOUT`, the RETRY count and CLAUDE.md.')
      .tool(
        'Bash',
        { command: 'grep -rn BUILD_FLAGS src' },
        'src/config.ts:3: export const BUILD_FLAGS = 1;\nsrc/config.ts:4: const RETRY = 3;\nWARNING: ALWAYS CHECK THIS',
      );
    const s = extractSections(b.messages, undefined, 5000).sections['Key Technical Concepts'];
    for (const term of ['`LLM`', '`HTTP`', '`AST`', '`RCA`', '`IAppSettings`', '`BUILD_FLAGS`', '`TIMEOUT`', '`RETRY`']) expect(s).toContain(term);
    for (const shout of [
      '`MUST`',
      '`ALWAYS`',
      '`BEFORE`',
      '`CRITICAL`',
      '`SIGNIFICANT`',
      '`MINOR`',
      '`UNVERIFIED`',
      '`ALGORITHM`',
      '`AWARENESS`',
      '`SECTION`',
      '`PRE`',
      '`CODE`',
      '`CLAUDE`',
      '`CHECK`',
    ]) {
      expect(s).not.toContain(shout);
    }
  });
});

describe('bullets', () => {
  it('a text that already opens with a bullet gets one bullet, not two; a number stays', () => {
    expect(listItem('- Responsive design')).toBe('- Responsive design');
    expect(listItem('* - nested')).toBe('- nested');
    expect(listItem('**bold** start')).toBe('- **bold** start');
    expect(listItem('1. First step')).toBe('- 1. First step');
  });

  it('no section shows "- - " when a sentence came from a list', () => {
    const b = new ConversationBuilder()
      .user('Please fix the stale cache.\n- The cache must be keyed by locale, because translations differ.\n- TODO: add a test for the fallback locale.')
      .assistant('Findings:\n- The cache is stale because the key ignores the locale.\n- b) The fallback was chosen since the locale list is empty.');
    const { sections } = extractSections(b.messages, undefined, 5000);
    for (const [name, body] of Object.entries(sections)) expect(body, name).not.toMatch(/^- (?:[-*•]|[a-z]\)) /m);
    expect(sections['Problem Solving']).toContain('- The cache is stale because the key ignores the locale.');
    expect(sections['Pending Tasks']).toContain('- User: TODO: add a test for the fallback locale.');
  });
});

describe('narration is not work done', () => {
  it('announcements stay out of Problem Solving; a decision with its reason stays', () => {
    const b = new ConversationBuilder()
      .user('Update the docs for the PNG charts.')
      .assistant(
        '- I need to follow the "Analyzer Agent" protocol: Root Cause Analysis, trace architecture, check for dead-ends. ' +
          "I'll update the README to reflect the static PNG files instead of the React web app. " +
          'First, I need to read the chart generator. ' +
          "I'll keep the charts in a Map instead of an array, because lookups by metric name are O(1).",
      )
      .thinking(
        'The prompt says "Reply in Russian", but since the docs are English I keep them English. They remind me: do not edit files without asking, because it is their repo.',
      );
    const problem = extractSections(b.messages, undefined, 5000).sections['Problem Solving'];
    expect(problem).not.toContain('Analyzer Agent');
    expect(problem).not.toContain('update the README');
    expect(problem).not.toContain('First, I need to');
    // Restating what the assistant was told is not work either.
    expect(problem).not.toContain('The prompt says');
    expect(problem).not.toContain('They remind me');
    expect(problem).toContain("I'll keep the charts in a Map instead of an array, because lookups by metric name are O(1).");
  });
});

describe('Current Work shows what the person would read', () => {
  it('splits reasoning written inline from the answer', () => {
    expect(splitInlineReasoning('<think>The user asks where.</think>\n\nIt is in ./report.md.')).toEqual({
      visible: 'It is in ./report.md.',
      reasoning: 'The user asks where.',
    });
    expect(splitInlineReasoning('<thinking-content-7bbeb8e1>\nHere is a thinking process.\n</thinking-content-7bbeb8e1>\nDone.')).toEqual({
      visible: 'Done.',
      reasoning: 'Here is a thinking process.',
    });
    expect(splitInlineReasoning('Still thinking </think> The answer.')).toEqual({ visible: 'The answer.', reasoning: 'Still thinking' });
    expect(splitInlineReasoning('<thinking>cut off mid-thought')).toEqual({ visible: '', reasoning: 'cut off mid-thought' });
    expect(splitInlineReasoning('a <b>plain</b> reply')).toEqual({ visible: 'a <b>plain</b> reply', reasoning: '' });
  });

  it('the last assistant message is its visible answer; reasoning alone is said briefly', () => {
    const answered = new ConversationBuilder()
      .user('Where did you create the file?')
      .assistant(
        '<thinking-content-7bbeb8e1441453ad>\n\nHere is a thinking process:\n1. Analyze the user input.\n</thinking-content-7bbeb8e1441453ad>\n\nThe report is in ./.claude/agent-reports/analyzer.md at the project root.',
      );
    const cw = extractSections(answered.messages, undefined, 5000).sections['Current Work'];
    expect(cw).toContain('Last assistant message: The report is in ./.claude/agent-reports/analyzer.md at the project root.');
    expect(cw).not.toContain('thinking');

    const thinkingOnly = new ConversationBuilder()
      .user('Summarize the design.')
      .assistant('<think>The user wants a summary of the design; first list the modules');
    const cw2 = extractSections(thinkingOnly.messages, undefined, 5000).sections['Current Work'];
    expect(cw2).toContain('- Last assistant message: reasoning only, no answer yet');
    expect(cw2).not.toContain('first list the modules');
  });

  it('aider: its token counts and file prompts are not work, its answers to prompts are not requests', () => {
    const history = [
      '# aider chat started at 2026-04-22 23:13:03',
      '',
      '#### Create the report file in the project root.  ',
      '',
      'I will write `report.md` with the analysis.',
      '',
      '> Tokens: 7.4k sent, 1.2k received.  ',
      '',
      "#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  ",
      '',
      'Adding the files.',
      '',
      '> CLAUDE.md  ',
      "> Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: y  ",
      '',
      'report.md',
      '```',
      '# Report',
      '```',
      '',
      '> Tokens: 11k sent, 4.2k received.  ',
      '> Applied edit to report.md  ',
      '',
    ].join('\n');
    const { conversation } = importAider(history);
    const { sections } = extractSections(conversation.messages, undefined, 5000);
    const cw = sections['Current Work'];
    expect(cw).toContain('Working on the request: Create the report file in the project root.');
    expect(cw).toContain('`aider` → ok: Applied edit to report.md');
    expect(cw).not.toContain('Tokens:');
    expect(cw).not.toContain('ok: CLAUDE.md');
    for (const name of ['Primary Request and Intent', 'Pending Tasks', 'Current Work'] as const) expect(sections[name], name).not.toContain('(Y)es/(N)o');
    // "All user messages" keeps every message the person typed, the prompt answer included.
    expect(sections['All user messages']).toContain('[Yes]: all');
  });
});
