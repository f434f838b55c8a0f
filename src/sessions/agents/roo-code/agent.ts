// Roo Code: tasks in VS Code's globalStorage `rooveterinaryinc.roo-cline/tasks/<id>/` (Cline's
// layout, read by the same code). It cannot resume a task from a file: a compaction becomes a
// handoff into a new task.

import { join } from 'node:path';
import type { AgentModule } from '../agent';
import { CLINE_TASK_FILES, findRooSessions, ROO_EXTENSION_ID } from '../cline/sessions';

export const rooCodeAgent: AgentModule = {
  id: 'roo-code',
  name: 'Roo Code',
  icon: 'hubot',
  settingKey: 'rooCode',
  envVars: [],
  where: "its folder in VS Code's global storage",
  formats: ['cline'],
  find: findRooSessions,
  watch: (p) => p.globalStorage.map((g) => ({ base: join(g, ROO_EXTENSION_ID), pattern: CLINE_TASK_FILES })),
  handoff: { newTaskCommand: 'roo-cline.plusButtonClicked' },
};
