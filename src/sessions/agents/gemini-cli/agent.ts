// Gemini CLI: sessions in `~/.gemini/tmp/<project>/chats/` (GEMINI_CLI_HOME moves the home folder),
// resumed with `gemini -r <id>` from the session's folder; a compacted session is a new file there.
//
// No hooks of ours. Its PreCompress event fires before every model call and its output is ignored
// (0.61), so nothing can reach its summariser; the only way to put facts back is a SessionStart or
// BeforeAgent `additionalContext`, which Gemini CLI prepends to the person's next prompt as
// `<hook_context>…</hook_context>` and stores that way — and a user message starting with
// `<hook_context>` is dropped when the session is resumed, so the person's own prompt would vanish
// from the conversation at the next resume.

import { shellQuote } from '../../shellQuote';
import { readBackAs } from '../../readBack';
import type { AgentModule } from '../agent';
import tested from '../testedVersions.json';
import { geminiTmpDir } from './projects';
import { findGeminiSessions } from './sessions';
import { geminiSessionFile, markGeminiProject } from './write';

const versions = tested['gemini-cli'];

export const geminiCliAgent: AgentModule = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  icon: 'star-empty',
  settingKey: 'geminiCli',
  envVars: ['GEMINI_CLI_HOME'],
  where: '~/.gemini/tmp/<project>/chats (GEMINI_CLI_HOME), projects whose folder is in the workspace',
  formats: ['gemini-cli'],
  versions,
  find: findGeminiSessions,
  watch: (p) => [{ base: geminiTmpDir(p.env, p.home), pattern: '*/chats/**/*.{json,jsonl}' }],
  resume: {
    program: 'gemini',
    command: (id) => `gemini -r ${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => geminiSessionFile(original, result, ctx),
    readBack: (file) => readBackAs('gemini-cli', file),
    register: markGeminiProject,
    // Gemini CLI's system instruction and tool declarations, which the file does not hold: 6,389
    // and 1,541 tokens (o200k_base) in the first request of 0.61; a little under, so a meter never
    // overstates.
    overheadEstimate: 7_500,
    // Each resume sends the results of the tool turns before it again, one to three times in the
    // runs here, more than the file shows: the system prompt and tools are what the first request
    // held besides its messages.
    overheadFromFirstRequest: true,
  },
};
