// Errors the quality benchmark found the engine losing (bench/quality.ts on the Claude Code and
// aider transcripts): tool results the harness flagged as errors in words no error pattern
// knows, and files aider put in front of the model after an answered prompt.

import { describe, expect, it } from 'vitest';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { ConversationBuilder } from '../../helpers/compactorFixtures';

describe('Errors and fixes: results flagged as errors without a known pattern', () => {
  const conv = new ConversationBuilder()
    .user('Please move the scripts into src/ and start the service.')
    .tool('Bash', { command: 'mv data-capture/*.ts src/' }, 'mv: src/ is not a directory', { isError: true })
    .tool('Edit', { file_path: 'src/db.ts', old_string: 'a', new_string: 'b' }, '<tool_use_error>String to replace not found in file.</tool_use_error>', {
      isError: true,
    })
    .tool(
      'Bash',
      { command: 'npm start' },
      "(node:31579) ExperimentalWarning: Type Stripping is an experimental feature\n(Use `node --trace-warnings ...` to show where the warning was created)\n\n> app@1.0.0 start\n\u001b[31merror\u001b[39m: Failed to start service: Class constructors cannot be invoked without 'new'",
      { isError: true },
    )
    .tool('Bash', { command: 'pkill -f node' }, 'Error', { isError: true })
    .tool('Write', { file_path: 'src/x.ts', content: 'x' }, "The user doesn't want to proceed with this tool use. The tool use was rejected.", {
      isError: true,
    })
    .assistant('Done.')
    .build();
  const errors = extractSections(conv.messages, undefined, 5000).sections['Errors and fixes'];

  it('lists a flagged result by its first line, without markup', () => {
    expect(errors).toContain('`mv: src/ is not a directory`');
    expect(errors).toContain('`String to replace not found in file.`');
  });

  it('prefers the line naming the error over warnings printed before it, colour codes removed', () => {
    expect(errors).toContain("`error: Failed to start service: Class constructors cannot be invoked without 'new'`");
    expect(errors).not.toContain('ExperimentalWarning');
  });

  it('leaves out a bare word and a declined tool call', () => {
    expect(errors).not.toMatch(/`Error`/);
    expect(errors).not.toContain("doesn't want to proceed");
  });
});

describe('Files and Code Sections: aider prompts answered yes', () => {
  const conv = new ConversationBuilder()
    .user('Add a sync command.')
    .tool('aider', {}, "Tokens: 3.2k sent, 79 received.\ninit_repo.sh\nAdd file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y")
    .tool(
      'aider',
      {},
      "sync-afi.sh\nCreate new file? (Y)es/(N)o [Yes]: y\nREADME.md\nAdd file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: s",
    )
    .assistant('Created the script.')
    .build();
  const files = extractSections(conv.messages, undefined, 5000).sections['Files and Code Sections'];

  it('names the file added to the chat (read) and the file created', () => {
    expect(files).toMatch(/`init_repo\.sh` — read/);
    expect(files).toMatch(/`sync-afi\.sh` — created/);
  });

  it('does not count a skipped file as acted on', () => {
    expect(files).not.toMatch(/`README\.md` — read/);
  });
});
