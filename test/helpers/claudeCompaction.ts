// A Claude Code session with a compaction in it, in the shapes Claude Code 2.1.328 and 2.1.332 write
// (seen on this machine): the conversation, a `compact_boundary` line with parentUuid null, its
// logicalParentUuid and compactMetadata.preservedMessages, then the isCompactSummary line and what
// follows. A manual /compact puts the summary right under the boundary; an automatic compaction
// puts two chained attachment lines (session_context, date) between them, and a bookkeeping line
// without a uuid (atis-latch) among them. The conversation holds one of each must-keep fact: a standing instruction, a todo list
// (TodoWrite), an error and its fix, files edited and read, requests.

import { fixedUuid } from './agentSessions';

export interface CompactedSessionSpec {
  sessionId?: string;
  cwd?: string;
  /** The native summary's words (default: a lossy one that names only the first request). */
  summary?: string;
  /** Leave the boundary and summary out: the file as the SessionStart hook sees it. */
  withoutCompaction?: boolean;
  /** Lines appended after the summary (the next turn). */
  after?: Record<string, unknown>[];
  /** An automatic compaction (its shape); default a manual /compact. */
  auto?: boolean;
  /** The usage the last answer records (input tokens); default 5,000. */
  usage?: number;
}

export const FACTS = {
  instruction: 'From now on, always run npm test before you commit anything.',
  request: 'Please add a retry with exponential backoff to src/fetch.ts and keep the old signature.',
  todoOpen: 'Write tests for the retry',
  todoInProgress: 'Add retry to fetchJson',
  todoDone: 'Read the fetch module',
  error: 'TypeError: fetchWithRetry is not a function',
  editedFile: '/w/src/fetch.ts',
  readFile: '/w/src/config.ts',
  lateInstruction: 'Never push to main; open a pull request instead.',
  keptAnswer: 'KEPT-VERBATIM: understood, pull requests only.',
} as const;

export const LOSSY_SUMMARY = 'The user asked for a retry in the fetch module. Work is under way.';

export function compactedSession(spec: CompactedSessionSpec = {}): {
  lines: Record<string, unknown>[];
  keptUuid: string;
  boundaryUuid: string;
  lastBeforeBoundary: number;
} {
  const sessionId = spec.sessionId ?? 'sess-1';
  const cwd = spec.cwd ?? '/w';
  let n = 1;
  let parent: string | null = null;
  const lines: Record<string, unknown>[] = [];
  const base = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.328' };
  const ts = () => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const push = (type: 'user' | 'assistant', message: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const uuid = fixedUuid(n);
    lines.push({ parentUuid: parent, ...base, type, message, uuid, timestamp: ts(), ...extra });
    n++;
    parent = uuid;
    return uuid;
  };
  let call = 0;
  const tool = (name: string, input: Record<string, unknown>, output: string, isError = false) => {
    const id = `toolu_${++call}`;
    push('assistant', { id: `msg_${call}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id, name, input }] });
    push('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: isError }] });
  };
  const usage = { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: (spec.usage ?? 5000) - 3, output_tokens: 40 };
  const say = (text: string) => push('assistant', { id: `msg_t${n}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], usage });

  push('user', { role: 'user', content: `${FACTS.instruction} ${FACTS.request}` });
  tool(
    'TodoWrite',
    {
      todos: [
        { content: FACTS.todoDone, status: 'completed' },
        { content: FACTS.todoInProgress, status: 'in_progress' },
        { content: FACTS.todoOpen, status: 'pending' },
      ],
    },
    'Todos have been modified successfully.',
  );
  tool('Read', { file_path: FACTS.readFile }, 'export const retries = 3;');
  tool('Bash', { command: 'npm test' }, `${FACTS.error}\n    at Object.<anonymous> (src/fetch.test.ts:4:5)`, true);
  tool(
    'Edit',
    { file_path: FACTS.editedFile, old_string: 'export function fetchJson', new_string: 'export function fetchWithRetry' },
    'The file /w/src/fetch.ts has been updated.',
  );
  tool('Bash', { command: 'npm test' }, 'Tests: 12 passed, 12 total');
  say('Fixed: fetchWithRetry is exported now and the tests pass.');
  // A sub-agent's line and an abandoned branch: neither is part of what was summarized.
  lines.push({
    parentUuid: parent,
    ...base,
    isSidechain: true,
    type: 'user',
    message: { role: 'user', content: 'SIDECHAIN-ONLY task text' },
    uuid: 'side-1',
    timestamp: ts(),
  });
  lines.push({
    parentUuid: fixedUuid(1),
    ...base,
    type: 'user',
    message: { role: 'user', content: 'REWOUND-BRANCH request that was abandoned' },
    uuid: 'rewound-1',
    timestamp: ts(),
  });
  push('user', { role: 'user', content: FACTS.lateInstruction });
  const keptUuid = say(FACTS.keptAnswer);
  const lastBeforeBoundary = lines.length;
  if (spec.withoutCompaction) return { lines, keptUuid, boundaryUuid: '', lastBeforeBoundary };

  const boundaryUuid = fixedUuid(900);
  if (!spec.auto) lines.push({ type: 'queue-operation', operation: 'enqueue', sessionId, content: '/compact' });
  lines.push({
    parentUuid: null,
    logicalParentUuid: keptUuid,
    ...base,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    timestamp: ts(),
    uuid: boundaryUuid,
    level: 'info',
    compactMetadata: spec.auto
      ? {
          trigger: 'auto',
          preTokens: 990366,
          preservedSegment: { headUuid: keptUuid, anchorUuid: fixedUuid(901), tailUuid: keptUuid },
          preservedMessages: { anchorUuid: fixedUuid(901), uuids: [keptUuid], allUuids: [keptUuid] },
        }
      : { trigger: 'manual', preTokens: 5123, preservedMessages: { anchorUuid: fixedUuid(901), uuids: [keptUuid], allUuids: [keptUuid] } },
  });
  let summaryParent = boundaryUuid;
  if (spec.auto) {
    const attachment = (k: number, a: Record<string, unknown>, rendered?: string) => {
      lines.push({
        parentUuid: summaryParent,
        ...base,
        type: 'attachment',
        attachment: a,
        uuid: fixedUuid(k),
        timestamp: ts(),
        ...(rendered ? { rendered: [{ content: rendered }], renderedRole: 'system' } : {}),
      });
      summaryParent = fixedUuid(k);
    };
    attachment(910, { type: 'session_context', context: {} });
    lines.push({ type: 'atis-latch', atis: 'x', sessionId });
    attachment(911, { type: 'date', date: '2026-01-01' }, "<system-reminder>\nToday's date is 2026-01-01.\n</system-reminder>");
  }
  const summaryText =
    'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n' +
    (spec.summary ?? LOSSY_SUMMARY);
  lines.push({
    parentUuid: summaryParent,
    ...base,
    type: 'user',
    message: { role: 'user', content: summaryText },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid: fixedUuid(901),
    timestamp: ts(),
  });
  lines.push({
    parentUuid: fixedUuid(901),
    ...base,
    type: 'attachment',
    attachment: { type: 'hook_success', hookName: 'SessionStart:compact', stdout: '', stderr: '', exitCode: 0 },
    uuid: fixedUuid(902),
    timestamp: ts(),
  });
  lines.push(...(spec.after ?? []));
  return { lines, keptUuid, boundaryUuid, lastBeforeBoundary };
}
