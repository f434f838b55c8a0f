// Task type, from the evidence a conversation leaves:
// - code: file-editing tool calls (Edit/Write/MultiEdit, str_replace, apply_patch, a shell
//   command that writes files), test and build runs, "Applied edit to …", ```diff blocks,
//   aider's SEARCH/REPLACE blocks; other commands that run code count a little.
// - analysis: search, listing and retrieval tools (grep, rg, fd, find, Glob, web search,
//   retrieve_memory), read-only file tools, and user requests to search / query / analyze.
// - conversation: no tool use and no code edits at all: user and assistant turns only
//   (confidence grows with the share of short turns).
// - mixed: tools of both kinds and neither reaches TASK_DOMINANT_SHARE of the evidence.
// - unknown: nothing to go on (no turns, or only tools of unknown purpose).
//
// Reading files is part of coding as much as of analysis, so a read weighs less than a search.

import { memoSlot, memoSlotWith, NONE, type MessageMemo } from '../conversation/messageMemo';
import { isHeaderItem, isToolResult, isUserAuthored, messageText, type Message } from '../conversation/model';
import type { TaskType } from '../result';
import { compileKeywords } from '../text/keywordMatcher';
import type { AnalyzeConstants } from './constants';
import { toolCallKind, type ToolKind } from './toolKinds';

const CODE_MARKERS = /\bApplied edit to\b|^```diff\b|^<{7} SEARCH\b|^\+\+\+ b\//gm;

const ANALYSIS_WORDS = compileKeywords({
  en: ['search*', 'query', 'queries', 'analy*', 'investigat*', 'look up', 'find out', 'summari*', 'compare'],
  zh: ['检索', '查询', '分析', '搜索', '调查', '统计', '总结', '比较'],
});

export interface TaskTypeResult {
  taskType: TaskType;
  confidence: number;
  signals: string[];
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** What one message adds to the evidence (header items add nothing). */
interface TaskEvidence {
  calls: readonly { kind: ToolKind; name: string }[];
  markers: number;
  analysisRequest: boolean;
  turn: boolean;
  /** A turn of at most this many characters: compared with TASK_SHORT_TURN_CHARS. */
  turnChars: number;
}

const EVIDENCE = memoSlot<TaskEvidence | undefined>('taskType.evidence');

function evidenceOf(m: Message): TaskEvidence | undefined {
  if (isHeaderItem(m)) return undefined;
  const text = messageText(m);
  let markers = 0;
  if (text.includes('Applied edit') || text.includes('```diff') || text.includes('<<<<<<< SEARCH') || text.includes('+++ b/')) {
    markers = text.match(CODE_MARKERS)?.length ?? 0;
  }
  return {
    calls: m.toolCalls?.length ? m.toolCalls.map((call) => ({ kind: toolCallKind(call), name: call.name })) : NONE,
    markers,
    analysisRequest: isUserAuthored(m) && ANALYSIS_WORDS.has(text.toLowerCase()),
    turn: (isUserAuthored(m) || (m.role === 'assistant' && !isToolResult(m))) && text.trim() !== '',
    turnChars: text.length,
  };
}

/** The counts detectTaskType reads, over the messages scanned so far (advanceTaskCounts). */
interface TaskCounts {
  kinds: Record<ToolKind, number>;
  byName: Map<string, number>;
  markers: number;
  analysisRequests: number;
  turns: number;
  shortTurns: number;
  toolCalls: number;
}

function taskCounts(): TaskCounts {
  return {
    kinds: { edit: 0, test: 0, run: 0, search: 0, read: 0, other: 0 },
    byName: new Map(),
    markers: 0,
    analysisRequests: 0,
    turns: 0,
    shortTurns: 0,
    toolCalls: 0,
  };
}

/** Counts messages[from…] into `s` (those before `from` were counted into it already). */
function advanceTaskCounts(s: TaskCounts, messages: readonly Message[], from: number, c: AnalyzeConstants, memo: MessageMemo | undefined): void {
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    const e = memo ? memo.get(m, EVIDENCE, evidenceOf) : evidenceOf(m);
    if (!e) continue;
    for (const call of e.calls) {
      s.toolCalls++;
      s.kinds[call.kind]++;
      s.byName.set(call.name, (s.byName.get(call.name) ?? 0) + 1);
    }
    s.markers += e.markers;
    if (e.analysisRequest) s.analysisRequests++;
    if (e.turn) {
      s.turns++;
      if (e.turnChars <= c.TASK_SHORT_TURN_CHARS) s.shortTurns++;
    }
  }
}

/** `memo` keeps each message's evidence for the next detection over the same messages, and the
 *  counts of the messages when it outlives the call: a grown conversation counts its new ones. */
export function detectTaskType(messages: readonly Message[], c: AnalyzeConstants, memo?: MessageMemo): TaskTypeResult {
  const counts = memo?.lasting
    ? memo.resume(memoSlotWith<TaskCounts>('taskType.counts', c), messages, taskCounts, (s, from) => advanceTaskCounts(s, messages, from, c, memo))
    : taskCounts();
  if (!memo?.lasting) advanceTaskCounts(counts, messages, 0, c, memo);
  const { kinds, byName, markers, analysisRequests, turns, shortTurns, toolCalls } = counts;

  const code = (kinds.edit + markers) * c.TASK_CODE_EDIT_WEIGHT + kinds.test * c.TASK_TEST_RUN_WEIGHT + kinds.run * c.TASK_CODE_OTHER_WEIGHT;
  const analysis = (kinds.search + (toolCalls > 0 ? analysisRequests : 0)) * c.TASK_ANALYSIS_WEIGHT + kinds.read * c.TASK_READ_WEIGHT;
  const total = code + analysis;

  const signals: string[] = [];
  const topTools = [...byName.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 6)
    .map(([name, k]) => `${name}×${k}`);
  if (toolCalls > 0) signals.push(`${toolCalls} tool calls (${topTools.join(', ')})`);
  if (kinds.edit > 0) signals.push(`${kinds.edit} file edits`);
  if (kinds.test > 0) signals.push(`${kinds.test} test/build runs`);
  if (kinds.run > 0) signals.push(`${kinds.run} other commands`);
  if (kinds.search > 0) signals.push(`${kinds.search} searches`);
  if (kinds.read > 0) signals.push(`${kinds.read} file reads`);
  if (markers > 0) signals.push(`${markers} applied edits or diffs in text`);
  if (analysisRequests > 0) signals.push(`${analysisRequests} user requests to search/analyze`);

  if (total === 0) {
    if (toolCalls > 0) {
      signals.push('tools of unknown purpose only');
      return { taskType: 'unknown', confidence: c.TASK_UNKNOWN_TOOLS_CONFIDENCE, signals };
    }
    if (turns === 0) return { taskType: 'unknown', confidence: 0, signals: ['no user or assistant turns'] };
    const shortShare = shortTurns / turns;
    signals.push(`no tool use; ${turns} turns, ${Math.round(shortShare * 100)}% short`);
    return { taskType: 'conversation', confidence: round2(0.5 + 0.5 * shortShare), signals };
  }

  const evidence = Math.min(1, total / c.TASK_EVIDENCE_SATURATION);
  const codeShare = code / total;
  signals.push(`code evidence ${round2(code)} vs analysis ${round2(analysis)} (${Math.round(codeShare * 100)}% code)`);
  if (codeShare >= c.TASK_DOMINANT_SHARE) return { taskType: 'code', confidence: round2(codeShare * evidence), signals };
  if (1 - codeShare >= c.TASK_DOMINANT_SHARE) return { taskType: 'analysis', confidence: round2((1 - codeShare) * evidence), signals };
  // Neither dominates: the closer to an even split, the surer "mixed" is.
  const balance = 1 - Math.abs(codeShare - 0.5) * 2;
  return { taskType: 'mixed', confidence: round2((0.5 + 0.5 * balance) * evidence), signals };
}
