// The summary says nothing the conversation does not show (issue 14), pinned with the real
// sessions where the untrue statements were seen: every litellm error of an aider session and a
// Claude Code "Command timed out" marked "— fixed" with nothing to show a fix; Pending Tasks
// holding the assistant's announcements and the tasks of sessions that ended in a submission; a
// step the assistant announced listed as problem solving; a module and a sed expression listed as
// edited files; "The original is archived" where nothing was. And the rules themselves, on small
// hand-made sessions: what counts as evidence of a fix, what stays pending.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isNarration, reportsDone } from '../../../src/engine/analyze/narration';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf } from '../../../src/engine/compactor';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../../src/engine/conversation/model';
import type { CompactionResult } from '../../../src/engine/result';
import type { SectionName } from '../../../src/engine/sections';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { parseSummary, splitBullets } from '../../../src/engine/segments/parseSummary';
import { shellFileActions } from '../../../src/engine/segments/spanView';
import { createTokenCounter, type CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { ConversationBuilder } from '../../helpers/compactorFixtures';
import { transcriptPath } from '../../helpers/transcripts';

let counterPromise: Promise<CachedTokenCounter> | undefined;
const counter = () => (counterPromise ??= createTokenCounter('gpt-4o'));

function load(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file, wholeFile: true }).conversation;
}

const results = new Map<string, Promise<CompactionResult>>();
/** The compaction `ctxc compact FILE --ratio 0.1` makes (no archive folder). */
function compacted(rel: string): Promise<CompactionResult> {
  let r = results.get(rel);
  if (!r) {
    r = counter().then((c) => compactConversation(load(rel), { counter: c, archive: new MemoryArchive(), ratio: 0.1, now: '2026-01-01T00:00:00Z' }));
    results.set(rel, r);
  }
  return r;
}

async function section(rel: string, name: SectionName): Promise<string[]> {
  const md = summaryTextOf((await compacted(rel)).conversation)!;
  return splitBullets(parseSummary(md).sections[name]);
}

describe('"fixed" only with evidence', () => {
  it('aider: no litellm rate-limit, credentials or provider error is marked fixed (nothing after them shows a fix)', async () => {
    const errors = await section('aider/Aquaticat__Monochromatic.aider.chat.history.md', 'Errors and fixes');
    const litellm = errors.filter((e) => e.includes('litellm.'));
    expect(litellm.length).toBeGreaterThanOrEqual(5);
    for (const e of litellm) expect(e, e).toMatch(/ — (?:seen, then not repeated|unresolved)\b/);
    const auth = await section('aider/AlexShchuka__mozgoslav.aider.chat.history.md', 'Errors and fixes');
    const authError = auth.find((e) => e.includes('AuthenticationError'))!;
    expect(authError).toBeDefined();
    // aider's output runs are all the argument-less call `aider {}`: a later one is not a re-run.
    expect(authError).not.toContain('— fixed');
  });

  it('Claude Code: "Command timed out after 2m 0.0s" is not fixed', async () => {
    const errors = await section('claude-code/kiliman__claude-transcript__test2.jsonl', 'Errors and fixes');
    const timeout = errors.find((e) => e.includes('Command timed out after 2m'));
    expect(timeout).toBeDefined();
    expect(timeout).not.toContain('— fixed');
  });

  it('mini-swe-agent: a "fixed" error names its evidence — a clean re-run of the same command, or an edit of the file it names', async () => {
    const errors = await section('mini-swe-agent/pytest-dev__pytest-7490.traj.json', 'Errors and fixes');
    const fixed = errors.filter((e) => / — fixed: /.test(e));
    expect(fixed.length).toBeGreaterThan(0);
    for (const e of fixed) expect(e).toMatch(/ran clean afterwards|which the error names; it did not occur again|the user said it works/);
  });

  const session = () => new ConversationBuilder().user('Make the parser tests pass.');
  const errorsOf = (b: ConversationBuilder) => extractSections(b.messages, undefined, 5000).sections['Errors and fixes'];

  it('a later clean run of the same command is evidence', () => {
    const b = session()
      .tool('Bash', { command: 'pytest tests/test_parser.py' }, 'E   KeyError: token\n1 failed', { isError: true })
      .tool('Edit', { file_path: 'src/lexer.py', old_string: 'a', new_string: 'b' }, 'ok')
      .tool('Bash', { command: 'pytest tests/test_parser.py' }, '3 passed');
    expect(errorsOf(b)).toContain(
      '`KeyError: token` from `pytest tests/test_parser.py` — fixed: edited `src/lexer.py`; `pytest tests/test_parser.py` ran clean afterwards',
    );
  });

  it('an edit of the file the error names, after which the error does not occur again, is evidence', () => {
    const b = session()
      .tool('Bash', { command: 'python run.py' }, 'Traceback (most recent call last):\n  File "src/parser.py", line 12, in parse\nValueError: bad token', {
        isError: true,
      })
      .tool('Edit', { file_path: 'src/parser.py', old_string: 'a', new_string: 'b' }, 'ok');
    expect(errorsOf(b)).toContain(
      '`ValueError: bad token` from `python run.py` — fixed: edited `src/parser.py`, which the error names; it did not occur again',
    );
  });

  it('the person saying it works is evidence; the assistant saying it fixed it is not', () => {
    const claimed = session()
      .tool('Bash', { command: 'npm start' }, 'Error: listen EADDRINUSE: address already in use :::8080', { isError: true })
      .assistant('I fixed the port conflict; the error is resolved.')
      .tool('Bash', { command: 'npm run lint' }, 'ok');
    expect(errorsOf(claimed)).toMatch(/EADDRINUSE[^\n]* — seen, then not repeated/);
    const confirmed = session()
      .tool('Bash', { command: 'npm start' }, 'Error: listen EADDRINUSE: address already in use :::8080', { isError: true })
      .user('I killed the other server, it works now.');
    expect(errorsOf(confirmed)).toMatch(/EADDRINUSE[^\n]* — fixed: the user said it works/);
    const denied = session()
      .tool('Bash', { command: 'npm start' }, 'Error: listen EADDRINUSE: address already in use :::8080', { isError: true })
      .user('It still does not work.');
    expect(errorsOf(denied)).not.toContain('— fixed');
  });

  it('an edit of another file and no re-run is not evidence; an error at the very end is unresolved', () => {
    const b = session()
      .tool('Bash', { command: 'python run.py' }, 'ValueError: bad token', { isError: true })
      .tool('Edit', { file_path: 'docs/notes.md', old_string: 'a', new_string: 'b' }, 'ok')
      .tool('Bash', { command: 'cargo build' }, 'error[E0308]: mismatched types', { isError: true });
    const s = errorsOf(b);
    expect(s).toContain('`ValueError: bad token` from `python run.py` — seen, then not repeated: edited `docs/notes.md` afterwards, no re-run shown');
    expect(s).toContain('`error[E0308]: mismatched types` from `cargo build` — unresolved');
  });

  it('the messages kept after the summary count as evidence: a recurrence there leaves it unresolved, a clean re-run there fixes it', () => {
    const span = session()
      .tool('Bash', { command: 'python run.py' }, 'ValueError: bad token', { isError: true })
      .tool('Read', { file_path: 'src/a.py' }, 'x').messages;
    const again = new ConversationBuilder().tool('Bash', { command: 'python run.py' }, 'ValueError: bad token', { isError: true }).messages;
    const clean = new ConversationBuilder().tool('Bash', { command: 'python run.py' }, 'all good').messages;
    const withAfter = (after: typeof span) =>
      extractSections(span, undefined, 5000, { after: { messages: after, analyses: after.map(() => undefined) } }).sections['Errors and fixes'];
    expect(withAfter([])).toMatch(/ValueError: bad token[^\n]* — seen, then not repeated/);
    expect(withAfter(again)).toMatch(/ValueError: bad token[^\n]* — unresolved/);
    expect(withAfter(clean)).toMatch(/ValueError: bad token[^\n]* — fixed: `python run.py` ran clean afterwards/);
  });
});

describe('Pending Tasks: only what the person asked for and nothing shows done', () => {
  it.each([
    'mini-swe-agent/django__django-11138.traj.json',
    'mini-swe-agent/django__django-15554.traj.json',
    'mini-swe-agent/pytest-dev__pytest-7490.traj.json',
    'mini-swe-agent/sympy__sympy-13091.traj.json',
  ])('%s ended in its submission (COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT): nothing is pending', async (rel) => {
    expect(await section(rel, 'Pending Tasks')).toEqual([]);
  });

  it.each([
    'aider/Aquaticat__Monochromatic.aider.chat.history.md',
    'aider/AlexShchuka__mozgoslav.aider.chat.history.md',
    'claude-code/kiliman__claude-transcript__test2.jsonl',
    'openhands/basic_gui_mode.json',
  ])('%s: no bullet is the assistant announcing its own step', async (rel) => {
    for (const b of await section(rel, 'Pending Tasks'))
      expect(b, b).toMatch(
        /^- (?:User: |Task list \(|Latest request, not reported done: |Latest request \(kept verbatim after this summary\), still being worked on: )/,
      );
    const all = (await section(rel, 'Pending Tasks')).join('\n');
    expect(all).not.toContain('Okay, I will make that change.');
    expect(all).not.toMatch(/I'll help you implement/);
  });

  it('a request the assistant only promised to do stays pending; a final report after the work ends it', () => {
    const promised = new ConversationBuilder()
      .user('Add a --verbose flag to the CLI.')
      .tool('Read', { file_path: 'src/cli.ts' }, 'x')
      .assistant('Sure, I will add it next.');
    expect(extractSections(promised.messages, undefined, 5000).sections['Pending Tasks']).toContain(
      'Latest request, not reported done: Add a --verbose flag to the CLI.',
    );
    const reported = new ConversationBuilder()
      .user('Add a --verbose flag to the CLI.')
      .tool('Edit', { file_path: 'src/cli.ts', old_string: 'a', new_string: 'b' }, 'ok')
      .assistant("I've added the --verbose flag; it prints each step.");
    expect(extractSections(reported.messages, undefined, 5000).sections['Pending Tasks']).toBe('');
  });

  it('after attempt_completion only what the person asked for later is pending', () => {
    const b = new ConversationBuilder()
      .user('Port the build to esbuild. TODO: drop webpack afterwards.')
      .tool('attempt_completion', { result: 'Ported.' }, 'ok')
      .user('Thanks. Next step: update the README for the new build.');
    const s = extractSections(b.messages, undefined, 5000).sections['Pending Tasks'];
    expect(s).not.toContain('drop webpack');
    expect(s).toContain('User: Next step: update the README for the new build.');
  });

  it('"todo" naming a thing is not a to-do', () => {
    const b = new ConversationBuilder().user('Build a todo list app.\n* See all the items on my todo list').tool('Bash', { command: 'ls' }, 'a');
    expect(extractSections(b.messages, undefined, 5000).sections['Pending Tasks']).not.toContain('User: * See all the items');
  });
});

describe('Problem Solving: no narration', () => {
  it('aider: the step the assistant announced ("First, I need to add an import for …") is not problem solving', async () => {
    const all = (await section('aider/Aquaticat__Monochromatic.aider.chat.history.md', 'Problem Solving')).join('\n');
    expect(all).not.toContain('First, I need to add an import for');
  });

  it('mini-swe-agent: announced steps without a reason are gone, decisions with one stay', async () => {
    for (const b of await section('mini-swe-agent/django__django-11138.traj.json', 'Problem Solving')) {
      if (b.startsWith('- User: ')) continue;
      expect(isNarration(b.replace(/^- /, '')), b).toBe(false);
    }
  });

  it('tells narration from a decision or a finding', () => {
    for (const s of [
      "I'll help you implement the necessary changes to the repository.",
      'Okay, I will make that change.',
      'First, I need to add an import for `MaybeAsyncIterable`.',
      'THOUGHT: I need to revert and apply again.',
      'Let me check the tests.',
      '让我看看这个文件。',
    ]) {
      expect(isNarration(s), s).toBe(true);
    }
    for (const s of [
      "I'll read it as a property instead, because the Session type defines it as a Date.",
      'The issue is that expiresAt is a property.',
      'It seems the cache is never cleared.',
      'We decided to keep the old API.',
    ]) {
      expect(isNarration(s), s).toBe(false);
    }
    expect(reportsDone("I've created a complete Vue.js todo application with all the requested features.")).toBe(true);
    expect(reportsDone('CLAUDE.md has been created with comprehensive documentation.')).toBe(true);
    expect(reportsDone('Sure, I will read SESSION_TTL from the environment.')).toBe(false);
  });
});

describe('Files and Code Sections: paths a tool or the person touched', () => {
  it('django: a module named in a sed script or a grep pattern is not a file; a sed expression is not a file', async () => {
    const files = (await section('mini-swe-agent/django__django-11138.traj.json', 'Files and Code Sections')).join('\n');
    expect(files).not.toContain('`django.conf`');
    expect(files).not.toContain('`django.db`');
    expect(files).toMatch(/`(?:\/testbed\/)?django\/db\/backends\/sqlite3\/base\.py` — edited/);
    const other = (await section('mini-swe-agent/django__django-15554.traj.json', 'Files and Code Sections')).join('\n');
    expect(other).not.toMatch(/`s\//);
  });

  it('reads a grep pattern and a sed script as code, their operands as files', () => {
    expect(shellFileActions('grep "from django.conf import settings" django/db/backends/sqlite3/base.py')).toEqual([
      { path: 'django/db/backends/sqlite3/base.py', action: 'searched' },
    ]);
    expect(shellFileActions("sed -i '/import pytz/a from django.conf import settings' base.py")).toEqual([{ path: 'base.py', action: 'edited' }]);
    expect(shellFileActions("sed -i 's/query_patch.py/query_patch_debug.py/' apply_patch.py")).toEqual([{ path: 'apply_patch.py', action: 'edited' }]);
    expect(shellFileActions('python -c "import os.path; print(1)" && grep -rn -A 3 "def f" src/a.py')).toEqual([{ path: 'src/a.py', action: 'searched' }]);
  });

  it('a path only the assistant wrote is not listed; one the person wrote is', () => {
    const b = new ConversationBuilder().user('Look at src/app.ts please.').assistant('You could also change src/other.ts or main.py.');
    const s = extractSections(b.messages, undefined, 5000).sections['Files and Code Sections'];
    expect(s).toContain('`src/app.ts` — mentioned by the user');
    expect(s).not.toContain('other.ts');
    expect(s).not.toContain('main.py');
  });
});

describe('the archive sentence only with an archive', () => {
  const SENTENCE = 'The original is archived and can be restored with undo.';
  it('ctxc compact without --archive: no archive, no sentence', async () => {
    expect(summaryTextOf((await compacted('openhands/basic_gui_mode.json')).conversation)).not.toContain(SENTENCE);
  });
  it('a durable archive (a folder on disk, or the extension standing for one): the sentence', async () => {
    const r = await compactConversation(load('openhands/basic_gui_mode.json'), { counter: await counter(), archive: new MemoryArchive(true) });
    expect(summaryTextOf(r.conversation)).toContain(SENTENCE);
  });
});
