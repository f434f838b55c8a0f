// Codex CLI: rollouts in `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (CODEX_HOME defaults to
// ~/.codex), resumed with `codex resume <id>`; a compacted session is a new rollout there.

import { shellQuote } from '../../shellQuote';
import { codexSessionsDir } from '../../locations';
import { CODEX_BASE_INSTRUCTIONS_ID } from '../../../engine/conversation/importers/codex';
import type { AgentModule } from '../agent';
import tested from '../testedVersions.json';
import { readBackCodexRollout } from './codexReadBack';
import { registerCodexRollout, unregisterCodexRollout } from './register';
import { findCodexSessions } from './sessions';
import { codexSessionFile } from './write';

const versions = tested['codex'];

export const codexAgent: AgentModule = {
  id: 'codex',
  name: 'Codex',
  icon: 'terminal',
  settingKey: 'codex',
  envVars: ['CODEX_HOME'],
  where: '$CODEX_HOME/sessions (default ~/.codex), rollouts whose folder is in the workspace',
  formats: ['codex'],
  versions,
  find: findCodexSessions,
  watch: (p) => [{ base: codexSessionsDir(p.env, p.home), pattern: '**/rollout-*.jsonl' }],
  resume: {
    program: 'codex',
    command: (id) => `codex resume ${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => codexSessionFile(original, result, ctx, versions.oldest),
    readBack: readBackCodexRollout,
    // The new rollout carries the original's base instructions in its session_meta.
    carries: (m) => m.source?.sourceId === CODEX_BASE_INSTRUCTIONS_ID,
    // Codex lists threads from its index (state_5.sqlite), not from the sessions folder.
    register: registerCodexRollout,
    unregister: unregisterCodexRollout,
    // Codex's base instructions and tools: ~10k tokens (the base_instructions of 0.171.0 rollouts).
    overheadEstimate: 10_000,
  },
};
