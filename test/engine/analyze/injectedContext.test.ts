// The person's own words in a user message, without the context the agents inject (the IDE
// block of the Codex extension, Cline's environment details, Claude Code's system reminders …).

import { describe, expect, it } from 'vitest';
import { hasInjectedContext, userWords } from '../../../src/engine/analyze/injectedContext';

describe('userWords: the person’s words without injected context', () => {
  it('Codex IDE extension: the request under "## My request for Codex:", not the tabs', () => {
    const text = [
      '# Context from my IDE setup:',
      '',
      '## Active file: apps/web/app/(protected)/settings/teams/components/TeamSheet.tsx',
      '',
      '## Active selection of the file:',
      'const [open, setOpen] = useState(false);',
      '',
      '## Open tabs:',
      '- TeamSheet.tsx: apps/web/app/(protected)/settings/teams/components/TeamSheet.tsx',
      '- page.tsx: apps/web/app/(protected)/settings/page.tsx',
      '',
      '## My request for Codex:',
      'Make the sheet close when the team is saved.',
      'Keep the animation.',
    ].join('\n');
    expect(userWords(text)).toBe('Make the sheet close when the team is saved.\nKeep the animation.');
    expect(hasInjectedContext(text)).toBe(true);
  });

  it('the other spellings of the block: "## My request:", attached files, the heading alone, CRLF', () => {
    expect(userWords('# Context from my IDE setup:\n\n## Active file: a.md\n\n## My request:\ninstall all packages\n')).toBe('install all packages');
    expect(userWords('# Files mentioned by the user:\r\n\r\n## shot.png:\r\nC:/Temp/shot.png\r\n\r\n## My request for Codex:\r\n请修复消息同步。\r\n')).toBe(
      '请修复消息同步。',
    );
    expect(userWords('## My request for Codex: rename the thing')).toBe('rename the thing');
  });

  it('a context block with no request holds no words', () => {
    expect(userWords('# Context from my IDE setup:\n\n## Active file: data/README.md')).toBe('');
  });

  it('tagged context is removed, word wrappers are unwrapped', () => {
    expect(userWords('<task>\nAdd a --json flag.\n</task>\n<environment_details>\n# VSCode Open Tabs\nsrc/cli.ts\n</environment_details>')).toBe(
      'Add a --json flag.',
    );
    expect(userWords('<user_input mode="act">fix the failing build</user_input>')).toBe('fix the failing build');
    expect(userWords('Run the tests again.\n<system-reminder>\nThe TodoWrite tool has not been used recently.\n</system-reminder>')).toBe(
      'Run the tests again.',
    );
    expect(userWords('<ide_opened_file>The user opened src/a.ts in the IDE.</ide_opened_file>why is this slow?')).toBe('why is this slow?');
    expect(userWords('<environment_context>\n  <cwd>/w</cwd>\n</environment_context>\n<task_progress>- [ ] a</task_progress>\nship it')).toBe('ship it');
  });

  it('leaves a person’s own structure and markup alone', () => {
    for (const text of [
      '# Context\nWe run on Node 20.\n# Task\nAdd retries.',
      'Why does <div> render twice?',
      'Wrap it in <context>…</context> please',
      'plain request',
      '<task>unclosed wrapper',
    ]) {
      expect(userWords(text)).toBe(text);
      expect(hasInjectedContext(text)).toBe(false);
    }
  });
});
