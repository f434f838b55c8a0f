// Importance score: a base by who is speaking plus bonuses.
//   base: user-authored 5.0, assistant 2.0, system / tool definitions / memory 1.0,
//         tool result 0.5 (see ROLE_BASE_TOOL_RESULT), earlier compaction summary 5.0
//   +0.5 per distinct important keyword (错误 失败 修复 完成 任务 …, error, fix, …)
//   +2.0 tool calls and tool results, +2.0 errors and fixes, +1.5 task completion,
//   +3.0 pinned / <Pin> / user-marked important (重要, 关键)
// The importance strategy keeps messages scoring ≥ 3.0. A tool result travelling with role 'user' is not a
// user message here (isUserAuthored), so it never gets the user base.

import { isHeaderItem, isToolResult, isUserAuthored, type Message } from '../conversation/model';
import { compileKeywords } from '../text/keywordMatcher';
import type { AnalyzeConstants } from './constants';
import type { KeyEventSignals } from './keyEvents';
import { IMPORTANT_KEYWORDS } from './keywords';

const important = compileKeywords(IMPORTANT_KEYWORDS);

export function roleBase(m: Message, c: AnalyzeConstants): number {
  if (m.itemType === 'COMPACTION_SUMMARY') return c.ROLE_BASE_SUMMARY;
  if (isHeaderItem(m)) return c.ROLE_BASE_SYSTEM;
  if (isToolResult(m)) return c.ROLE_BASE_TOOL_RESULT;
  if (isUserAuthored(m)) return c.ROLE_BASE_USER;
  if (m.role === 'assistant') return c.ROLE_BASE_ASSISTANT;
  return c.ROLE_BASE_SYSTEM;
}

export function roleScore(m: Message, lower: string, signals: KeyEventSignals, c: AnalyzeConstants): number {
  let score = roleBase(m, c);
  score += important.matchedTerms(lower).length * c.ROLE_KEYWORD_BONUS;
  if ((m.toolCalls?.length ?? 0) > 0 || isToolResult(m)) score += c.ROLE_TOOL_BONUS;
  if (signals.errorOrFix) score += c.ROLE_ERROR_FIX_BONUS;
  if (signals.completion) score += c.ROLE_COMPLETION_BONUS;
  if (signals.pinned) score += c.ROLE_PINNED_BONUS;
  return score;
}
