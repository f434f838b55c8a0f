// Cline: the VS Code extension's tasks (globalStorage `saoudrizwan.claude-dev/tasks/<id>/`, the
// same layout under ~/.cline/data) and Cline CLI 3.x sessions (`~/.cline/data/sessions/<id>/`).
// The CLI resumes a session folder written for it (`cline --id <id>`, in a terminal: verified with
// 3.0.65), so a compaction becomes a new CLI session; the extension cannot resume a task from a
// file, so a compaction of one of its tasks becomes a handoff into a new task.

import { join } from 'node:path';
import { clineDataDir, clineSessionsDir, isInside } from '../../locations';
import { readBackAs } from '../../readBack';
import { shellQuote } from '../../shellQuote';
import type { AgentModule, WatchPlace } from '../agent';
import tested from '../testedVersions.json';
import { CLINE_EXTENSION_ID, CLINE_TASK_FILES, findClineSessions } from './sessions';
import { clineSessionFile } from './write';

const versions = tested['cline'];

export const clineAgent: AgentModule = {
  id: 'cline',
  name: 'Cline',
  icon: 'robot',
  settingKey: 'cline',
  envVars: ['CLINE_DATA_DIR', 'CLINE_DIR', 'CLINE_SESSION_DATA_DIR'],
  where: "its folder in VS Code's global storage, and ~/.cline/data (CLINE_DATA_DIR, CLINE_SESSION_DATA_DIR)",
  formats: ['cline'],
  versions,
  find: findClineSessions,
  watch: (p) => {
    const out: WatchPlace[] = p.globalStorage.map((g) => ({ base: join(g, CLINE_EXTENSION_ID), pattern: CLINE_TASK_FILES }));
    const data = clineDataDir(p.env, p.home);
    const sessions = clineSessionsDir(p.env, p.home);
    out.push({ base: data, pattern: `{${CLINE_TASK_FILES.slice(1, -1)},sessions/**/*.json}` });
    if (!isInside(sessions, data)) out.push({ base: sessions, pattern: '**/*.json' });
    return out;
  },
  resume: {
    program: 'cline',
    command: (id) => `cline --id ${shellQuote(id)}`,
    sessionFile: (original, result, ctx) => clineSessionFile(original, result, ctx, versions.oldest),
    readBack: (file) => readBackAs('cline', file),
    // Cline CLI 3.0.65's system prompt (4 KB) and tool definitions (18 KB) in its requests.
    overheadEstimate: 5_000,
  },
  handoff: { newTaskCommand: 'cline.plusButtonClicked' },
};
