// The eight section builders on a small hand-made coding session: each section says what a
// person resuming the session needs, in sentences and lists.

import { describe, expect, it } from 'vitest';
import { SECTION_NAMES } from '../../../src/engine/sections';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { MessageMemo } from '../../../src/engine/conversation/messageMemo';
import { buildSectionMaterial, extractSections } from '../../../src/engine/segments/extractSections';
import { shellFileActions } from '../../../src/engine/segments/spanView';
import { ConversationBuilder, codingSession } from '../../helpers/compactorFixtures';

describe('section builders on a coding session', () => {
  const conv = codingSession();
  const { sections } = extractSections(conv.messages, undefined, 5000);

  it('Primary Request and Intent: the first request whole, then later requirements', () => {
    const s = sections['Primary Request and Intent'];
    expect(s).toContain('Initial request: Please fix the failing login test in src/auth/login.ts. The session must expire after 30 minutes.');
    expect(s).toContain('Also make the timeout configurable via SESSION_TTL.');
  });

  it('Key Technical Concepts: identifiers and acronyms the session uses', () => {
    const s = sections['Key Technical Concepts'];
    expect(s).toContain('`SESSION_TTL`');
    expect(s).toContain('`expiresAt`');
  });

  it('Files and Code Sections: each file with its last action and the code written', () => {
    const s = sections['Files and Code Sections'];
    expect(s).toMatch(/`src\/auth\/login\.ts` — edited \(also read\)/);
    expect(s).toContain('session.expiresAt');
  });

  it('Errors and fixes: the error, the command that hit it, the fix and the clean re-run', () => {
    const s = sections['Errors and fixes'];
    expect(s).toContain(
      '`TypeError: session.expiresAt is not a function` from `npm test -- login` — fixed: edited `src/auth/login.ts`; `npm test -- login` ran clean afterwards',
    );
  });

  it('Problem Solving: the decision and why', () => {
    expect(sections['Problem Solving']).toContain('I decided to read it as a property instead of calling it, because the Session type defines it as a Date.');
  });

  it('All user messages: every one, in order', () => {
    const lines = sections['All user messages'].split('\n');
    expect(lines).toEqual([
      '- Please fix the failing login test in src/auth/login.ts. The session must expire after 30 minutes.',
      '- Great. Next, add a test for the 30 minute expiry, and TODO: update the CHANGELOG.',
      '- Also make the timeout configurable via SESSION_TTL.',
    ]);
  });

  it('Pending Tasks: the latest todo list verbatim, TODO sentences, the open request', () => {
    const s = sections['Pending Tasks'];
    expect(s).toContain(
      '- Task list (latest, TodoWrite):\n  - [x] Fix login test\n  - [ ] Add a test for session expiry (in progress)\n  - [ ] Update CHANGELOG.md',
    );
    expect(s).toContain('TODO: update the CHANGELOG');
    expect(s).toContain('Latest request, not reported done: Also make the timeout configurable via SESSION_TTL.');
  });

  it('Current Work: the last assistant words and the last commands with their outcome', () => {
    const s = sections['Current Work'];
    expect(s).toContain('Last assistant message: Sure, I will read SESSION_TTL from the environment.');
    expect(s).toContain('`npm test -- login` → ok: PASS test/login.test.ts');
  });

  it('is deterministic', () => {
    expect(extractSections(conv.messages, undefined, 5000).sections).toEqual(sections);
  });
});

describe('budget', () => {
  it('keeps every user message and file under a tiny budget, shortening long ones with a marker', () => {
    const b = new ConversationBuilder();
    for (let i = 0; i < 12; i++) {
      b.user(`Request number ${i}: ${'please handle the case where the cache is cold and the index is rebuilt. '.repeat(20)}`);
      b.tool('Read', { file_path: `src/module${i}.ts` }, 'content');
    }
    const r = extractSections(b.messages, undefined, 50);
    const users = r.sections['All user messages'];
    for (let i = 0; i < 12; i++) {
      expect(users).toContain(`Request number ${i}: please handle`);
      expect(r.sections['Files and Code Sections']).toContain(`src/module${i}.ts`);
    }
    expect(users).toMatch(/\[… [\d,]+ more characters\]/);
    expect(r.floor).toBeGreaterThan(50);
  });

  it('keeps the line of the most used technical terms under a tiny budget', () => {
    const conv = codingSession();
    const tiny = extractSections(conv.messages, undefined, 50).sections['Key Technical Concepts'];
    const roomy = extractSections(conv.messages, undefined, 5000).sections['Key Technical Concepts'];
    expect(tiny).not.toBe('');
    expect(roomy.startsWith(tiny.split('\n')[0]!)).toBe(true);
    expect(tiny).toContain('`SESSION_TTL`');
  });

  it('gives a larger budget more detail, never less', () => {
    const conv = codingSession();
    const small = extractSections(conv.messages, undefined, 200);
    const large = extractSections(conv.messages, undefined, 2000);
    expect(large.tokens).toBeGreaterThanOrEqual(small.tokens);
    expect(large.tokens).toBeLessThanOrEqual(2000);
    for (const n of SECTION_NAMES) expect(large.sections[n].length).toBeGreaterThanOrEqual(small.sections[n].length);
  });
});

describe('errors without a fix', () => {
  it('marks an error unresolved when nothing after it changes anything', () => {
    const b = new ConversationBuilder()
      .user('run the build')
      .tool('Bash', { command: 'cargo build' }, 'error[E0308]: mismatched types\n --> src/main.rs:4:5', { isError: true });
    const s = extractSections(b.messages, undefined, 1000).sections['Errors and fixes'];
    expect(s).toContain('`error[E0308]: mismatched types` from `cargo build` — unresolved');
  });
});

describe('errors that are not failures', () => {
  it('does not list a search that found nothing (exit code 1 from grep) as an error', () => {
    const b = new ConversationBuilder()
      .user('find where the retry helper is defined')
      .tool('bash', { command: 'grep -rn "def retry" src/' }, '<returncode>1</returncode>\n<output>\n</output>')
      .tool('bash', { command: 'python -m pytest tests/test_retry.py' }, '<returncode>1</returncode>\n<output>\n1 failed\n</output>');
    const s = extractSections(b.messages, undefined, 1000).sections['Errors and fixes'];
    expect(s).not.toContain('grep');
    expect(s).toContain('`exit code 1` from `python -m pytest tests/test_retry.py`');
  });
});

describe('shell commands', () => {
  it('tells apart files read, created, edited and run within one command line', () => {
    expect(shellFileActions('cat a.py && sed -i s/x/y/ b.py && python run.py > out.txt')).toEqual([
      { path: 'a.py', action: 'read' },
      { path: 'b.py', action: 'edited' },
      { path: 'run.py', action: 'ran' },
      { path: 'out.txt', action: 'created' },
    ]);
    expect(shellFileActions("cat <<'EOF' > new.py\nimport os\nEOF")).toEqual([{ path: 'new.py', action: 'created' }]);
  });

  it('says a command ran only the file it executes; the other files it names are used, commit messages name none', () => {
    expect(shellFileActions('git add README.md package.json && git commit -m "update README.md"')).toEqual([
      { path: 'README.md', action: 'used' },
      { path: 'package.json', action: 'used' },
    ]);
    expect(shellFileActions('python -u repro.py --config settings.yaml')).toEqual([
      { path: 'repro.py', action: 'ran' },
      { path: 'settings.yaml', action: 'used' },
    ]);
    expect(shellFileActions('git checkout src/app.py')).toEqual([{ path: 'src/app.py', action: 'edited' }]);
    expect(shellFileActions('./build.sh out/app.js')).toEqual([
      { path: 'build.sh', action: 'ran' },
      { path: 'out/app.js', action: 'used' },
    ]);
  });
});

describe('Pending Tasks under a tight budget', () => {
  it("keeps the user's explicit to-dos, not sentences that merely say what is not needed", () => {
    const conv = new ConversationBuilder()
      .user('Please port the CLI to ESM. We already have a repo, so you do not need to git init.')
      .tool('Bash', { command: 'npm test' }, `PASS\n${'  ok test line\n'.repeat(200)}`)
      .assistant(`I ported the CLI to ESM. ${'The loaders now use import statements throughout the code base. '.repeat(20)}`)
      .user('Thanks. TODO: write the migration guide for plugin authors.')
      .assistant('Will do.')
      .build();
    const { sections } = extractSections(conv.messages, undefined, 100);
    const s = sections['Pending Tasks'];
    expect(s).toContain('User: TODO: write the migration guide for plugin authors.');
    expect(s).not.toContain('do not need to git init');
  });
});

describe('Primary Request and Intent: what opens the task', () => {
  it('skips a bare slash command and a prompt answer, and reads a Claude Code command as typed', () => {
    const b = new ConversationBuilder()
      .user('<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>')
      .user("Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: skip")
      .user(
        '<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>please check the retry logic in src/net/fetch.ts</command-args>',
      )
      .assistant('Reviewing it now.')
      .user('Create new file? (Y)es/(N)o [Yes]: y')
      .user('Then add a test for the retry backoff, it must cover 429 responses.');
    const s = extractSections(b.messages, undefined, 5000).sections['Primary Request and Intent'];
    expect(s).toContain('- Initial request: /review please check the retry logic in src/net/fetch.ts');
    expect(s).not.toContain('<command-name>');
    expect(s).not.toContain('(Y)es/(N)o');
    expect(s).toContain('- Then add a test for the retry backoff, it must cover 429 responses.');
    // Every one of them is still in "All user messages".
    const users = extractSections(b.messages, undefined, 5000).sections['All user messages'];
    expect(users).toContain('/clear');
    expect(users).toContain('[Yes]: skip');
  });

  it('lists a requirement without the list marker it was written with, and a "for:" sentence with what follows', () => {
    const b = new ConversationBuilder()
      .user('Set up the project skeleton for the billing service.')
      .assistant('Done.')
      .user('Some rules.\n- Ensure it aligns with the billing API contract.\n1. You must avoid global state in handlers.')
      .assistant('Understood.')
      .user('Please show me the current diff for:\nsrc/billing/invoice.ts');
    const s = extractSections(b.messages, undefined, 5000).sections['Primary Request and Intent'];
    expect(s).toContain('\n- Ensure it aligns with the billing API contract.\n');
    expect(s).toContain('\n- You must avoid global state in handlers.');
    expect(s).not.toMatch(/^- [-*] /m);
    expect(s).toContain('- Please show me the current diff for: src/billing/invoice.ts');
  });
});

describe('Key Technical Concepts: not the words of the tools', () => {
  it('leaves out aider edit markers, plain capitalised words and todo states', () => {
    const b = new ConversationBuilder()
      .user('THE parser in src/lexer.ts must handle UTF8 input. OK?')
      .assistant(
        'src/lexer.ts\n```ts\n<<<<<<< SEARCH\nconst TokenKind = 1;\n=======\nconst TokenKind = 2;\n>>>>>>> REPLACE\n```\nThe TokenKind enum now covers UTF8 runs.',
      )
      .tool('TodoWrite', { todos: [{ content: 'Handle UTF8 in nextToken', status: 'in_progress', activeForm: 'Handling UTF8' }] }, 'ok');
    const s = extractSections(b.messages, undefined, 5000).sections['Key Technical Concepts'];
    expect(s).toContain('`UTF8`');
    expect(s).toContain('`TokenKind`');
    for (const noise of ['`SEARCH`', '`REPLACE`', '`THE`', '`OK`', '`in_progress`', '`activeForm`']) expect(s).not.toContain(noise);
  });
});

describe('material of a longer span after a shorter one (the ratio loop giving the tail less room)', () => {
  // Near-duplicates far apart and close together: the groups of the longer span, built with the
  // memo that saw its first part, are those a fresh memo finds.
  const b = new ConversationBuilder();
  for (let i = 0; i < 400; i++) {
    if (i % 5 === 0)
      b.user(`Please remember that the session timeout in src/auth/login.ts must be thirty minutes for every user of the admin panel, variant ${i}.`);
    else b.user(`Item ${i} is about topic ${i % 13}.`);
    b.assistant(`Noted: ${i}.`);
  }
  const all = b.messages;
  it('gives the same items as building it afresh', () => {
    const memo = new MessageMemo();
    const analyses = analyzeConversation(all).messages;
    for (const n of [300, 620, 800, 800]) {
      // The span and the messages after it: the same timeline each time, the span growing.
      const span = all.slice(0, n);
      const opts = { after: { messages: all.slice(n), analyses: analyses.slice(n) } };
      const resumed = buildSectionMaterial(span, analyses.slice(0, n), { ...opts, memo });
      const fresh = buildSectionMaterial(span, analyses.slice(0, n), { ...opts, memo: new MessageMemo() });
      expect(resumed.items).toEqual(fresh.items);
      expect(resumed.items['All user messages'].some((it) => it.reduced?.similar !== undefined)).toBe(true);
    }
    // A shorter span after the longer one starts over and still agrees.
    const span = all.slice(0, 500);
    expect(buildSectionMaterial(span, undefined, { memo }).items).toEqual(buildSectionMaterial(span, undefined, { memo: new MessageMemo() }).items);
  });
});

describe('Primary Request and Intent over many requirements', () => {
  it('keeps the PRIMARY_MAX_REQUIREMENTS best by priority, each requirement once, ties to the earlier', () => {
    const b = new ConversationBuilder().user('Please build a billing service for the shop.');
    for (let i = 0; i < 120; i++) {
      b.user(i % 4 === 0 ? 'We must keep the invoices for ten years.' : `Please add the report number ${i} to the dashboard.`);
      b.assistant('Done.');
    }
    const items = buildSectionMaterial(b.messages, undefined).items['Primary Request and Intent'];
    const reqs = items.filter((it) => it.key.startsWith('req:'));
    expect(reqs).toHaveLength(40);
    expect(new Set(reqs.map((it) => it.key)).size).toBe(40);
    // The repeated requirement is listed once, at its first message.
    const invoices = reqs.filter((it) => it.key.includes('invoices'));
    expect(invoices.length).toBeLessThanOrEqual(1);
    for (let i = 1; i < reqs.length; i++) {
      const a = reqs[i - 1]!;
      const c = reqs[i]!;
      expect(a.priority > c.priority || (a.priority === c.priority && a.order < c.order)).toBe(true);
    }
    // The most recent requirement is among them.
    expect(reqs.some((it) => it.forms[0]!.includes('number 119'))).toBe(true);
  });
});
