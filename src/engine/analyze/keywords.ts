// The tier, role-score, key-event and focus keyword lists in English and Chinese (the content
// lists are in contentKeywords.ts), and the two rules built directly on them:
// the importance tiers and the acknowledgement test.
// Syntax of the lists: text/keywordMatcher.ts (English whole words, "stem*", "word:"; Chinese substrings).

import { compileKeywords, type KeywordSpec } from '../text/keywordMatcher';
import type { FocusName } from './analysis';
import type { AnalyzeConstants } from './constants';

// ── Tiers ────────────────────────────────────────────────────────────────────────────

/** 🔴 Extreme (keep verbatim): decisions, rules, architecture, tasks, specs, prohibitions,
 *  musts and "important". The Chinese words are often written with a colon (决定:); they count
 *  without one too, as do their English equivalents. */
export const TIER_EXTREME_KEYWORDS: KeywordSpec = {
  zh: ['决定:', '规则:', '架构:', '任务:', '规范:', '禁止:', '必须:', '重要:', '决定', '规则', '架构', '任务', '规范', '禁止', '必须', '重要'],
  en: [
    'decision:',
    'decided:',
    'rule:',
    'rules:',
    'task:',
    'spec:',
    'specification:',
    'forbidden:',
    'must',
    'never',
    'important',
    'architecture',
    'requirement',
    'requirements',
  ],
};

/** 🟡 High (keep a summary): code, plans, designs, implementations, changes, additions, done. */
export const TIER_HIGH_KEYWORDS: KeywordSpec = {
  zh: ['代码:', '方案:', '设计:', '实现:', '修改:', '新增:', '完成:', '代码', '方案', '设计', '实现', '修改', '新增', '完成'],
  en: ['code', 'plan', 'plans', 'planned', 'design', 'designs', 'designed', 'implement*', 'change', 'changes', 'changed', 'add', 'adds', 'added', 'done'],
};

/** 🟢 Medium (summarize or merge): discussion and opinion. */
export const TIER_MEDIUM_KEYWORDS: KeywordSpec = {
  zh: ['讨论:', '对话:', '讨论', '对话', '说了', '觉得'],
  en: ['discussion:', 'conversation:', 'discuss*', 'said', 'i think', 'i feel', 'in my opinion'],
};

/** ⚪ Low: words that make up acknowledgements. A message is low-tier only when it consists of
 *  nothing else (see isAcknowledgement): "ok" inside a long message says nothing about it. */
export const ACKNOWLEDGEMENT_WORDS: KeywordSpec = {
  zh: [
    '好的',
    '收到',
    '嗯',
    '好',
    '请问',
    '谢谢',
    '抱歉',
    '对不起',
    '好滴',
    '行',
    '明白',
    '了解',
    '知道了',
    '没问题',
    '多谢',
    '感谢',
    '非常',
    '十分',
    '很',
    '了',
    '啊',
    '呀',
    '哈',
    '吧',
    '啦',
    '哦',
    '喔',
    '呢',
  ],
  en: [
    'ok',
    'okay',
    'okey',
    'k',
    'kk',
    'thanks',
    'thank you',
    'thankyou',
    'thx',
    'ty',
    'got it',
    'sure',
    'great',
    'yes',
    'y',
    'yep',
    'yeah',
    'yup',
    'alright',
    'all right',
    'cool',
    'nice',
    'perfect',
    'fine',
    'good',
    'sounds good',
    'looks good',
    'lgtm',
    'noted',
    'understood',
    'roger',
    'np',
    'no problem',
    'sorry',
    'very much',
    'so much',
    'a lot',
    // Go-aheads ("yes do it", "go ahead", "continue"): they say "carry on", nothing more.
    'do it',
    'go ahead',
    'go for it',
    'go on',
    'proceed',
    'continue',
  ],
};

const tierExtreme = compileKeywords(TIER_EXTREME_KEYWORDS);
const tierHigh = compileKeywords(TIER_HIGH_KEYWORDS);
const tierMedium = compileKeywords(TIER_MEDIUM_KEYWORDS);

/** Punctuation, symbols (emoji included), emoji joiners/modifiers and whitespace. */
// eslint-disable-next-line no-misleading-character-class -- the joiner (U+200D) and the variation selector (U+FE0F) are meant as single characters here
const NON_WORD = /[\p{P}\p{S}\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f\s]+/gu;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const ACK_SEQUENCE = buildAckSequence(ACKNOWLEDGEMENT_WORDS);

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "The whole string is ack words separated by optional spaces." English words may not run
 *  into further letters ("yo" is not "y" + "o"). */
function buildAckSequence(spec: KeywordSpec): RegExp {
  const en = [...(spec.en ?? [])].sort((a, b) => b.length - a.length).map((w) => escapeRe(w).replace(/ /g, ' ?'));
  const zh = [...(spec.zh ?? [])].sort((a, b) => b.length - a.length).map(escapeRe);
  return new RegExp(`^(?: ?(?:(?:${en.join('|')})(?![a-z])|${zh.join('|')}))+ ?$`, 'u');
}

/**
 * True when the message is nothing but an acknowledgement, in English or Chinese:
 * after lower-casing and replacing punctuation, emoji and whitespace by single spaces, what is
 * left is at most `ACK_MAX_CHARS` characters (spaces not counted) and consists only of
 * acknowledgement words ("ok", "thanks!", "Got it 👍", "好的，谢谢", "收到了"). A message of
 * only emoji ("👍") is one too. Empty text is not: there is nothing to acknowledge with.
 */
export function isAcknowledgementText(text: string, maxChars: number): boolean {
  if (text.length > maxChars * 8) return false;
  const lower = text.toLowerCase();
  const stripped = lower.replace(NON_WORD, ' ').trim();
  if (stripped === '') return PICTOGRAPH.test(text);
  if (stripped.replace(/ /g, '').length > maxChars) return false;
  return ACK_SEQUENCE.test(stripped);
}

/** An answer typed at a tool's yes/no prompt, echoed into the transcript: aider's
 *  "Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: skip", or a
 *  "Proceed? [y/N]: y". The person typed it, but it says "go on", like an acknowledgement. */
const PROMPT_ANSWER = /^[^\n?]{1,200}\?\s*(?:\(Y\)es\/\(N\)o[^\n]*?|\[(?:y\/n|Y\/n|y\/N)\])\s*(?:\[[^\]\n]{0,20}\])?\s*:\s*\S{0,20}\s*$/;

export function isPromptAnswer(text: string): boolean {
  // The prompt's question mark first: most messages have none, and trim() copies the text.
  return text.length <= 400 && text.includes('?') && PROMPT_ANSWER.test(text.trim());
}

export type TierName = 'extreme' | 'high' | 'medium' | 'low' | 'default';

export interface TierResult {
  tier: number;
  name: TierName;
  /** The keywords that decided it (empty for low/default). */
  keywords: string[];
}

/**
 * Importance tier of one message's text, checked in this order:
 * extreme, high, medium, then low (acknowledgements only), else the default.
 */
export function keywordTier(lower: string, isAck: boolean, c: AnalyzeConstants): TierResult {
  let kw = tierExtreme.matches(lower);
  if (kw.length > 0) return { tier: c.TIER_EXTREME, name: 'extreme', keywords: kw };
  kw = tierHigh.matches(lower);
  if (kw.length > 0) return { tier: c.TIER_HIGH, name: 'high', keywords: kw };
  kw = tierMedium.matches(lower);
  if (kw.length > 0) return { tier: c.TIER_MEDIUM, name: 'medium', keywords: kw };
  if (isAck) return { tier: c.TIER_LOW, name: 'low', keywords: [] };
  return { tier: c.TIER_DEFAULT, name: 'default', keywords: [] };
}

// ── Role-score and key-event word lists ────────────────────────────────────────────

/** "Important keywords" of the role score (+0.5 each distinct one). */
export const IMPORTANT_KEYWORDS: KeywordSpec = {
  zh: ['错误', '失败', '修复', '完成', '任务', '问题', '解决', '异常', '报错', '重要', '关键'],
  en: [
    'error',
    'errors',
    'fail',
    'failed',
    'failure',
    'failing',
    'fix',
    'fixed',
    'complete',
    'completed',
    'task',
    'bug',
    'exception',
    'resolved',
    'important',
    'critical',
  ],
};

/** Errors (key events "错误和修复", role bonus). */
export const ERROR_KEYWORDS: KeywordSpec = {
  zh: ['错误', '失败', '异常', 'bug', '问题', '调试', '排查', '报错', '崩溃'],
  en: [
    'error',
    'errors',
    'fail',
    'fails',
    'failed',
    'failure',
    'failures',
    'failing',
    'exception',
    'exceptions',
    'bug',
    'bugs',
    'crash*',
    'traceback',
    'broken',
    'debug',
    'debugging',
  ],
};

/** Fixes (key events, role bonus). */
export const FIX_KEYWORDS: KeywordSpec = {
  zh: ['修复', '解决', '修正', '改正', '已修'],
  en: ['fix', 'fixes', 'fixed', 'fixing', 'resolve', 'resolved', 'resolves', 'solved', 'workaround', 'patched', 'corrected'],
};

/** Task completion markers: the !!!COMPLETE!!! / !!!SUMMARY!!! markers, mini-swe-agent's submit
 *  command, Cline's attempt_completion, and the plain words. "done" counts only as a line of
 *  its own (see keyEvents.ts): inside a sentence it rarely means the task is finished. */
export const COMPLETION_KEYWORDS: KeywordSpec = {
  zh: ['任务完成', '已完成', '完成了', '全部完成', '已提交'],
  en: [
    '!!!complete!!!',
    '!!!summary!!!',
    'complete_task_and_submit_final_output',
    'attempt_completion',
    'task complete',
    'task completed',
    'task is complete',
    'task has been completed',
    'submitted',
    'all tests pass',
    'all tests passed',
    'all tests are passing',
    'completed successfully',
  ],
};

/** Task start markers (besides the first user message). */
export const TASK_START_KEYWORDS: KeywordSpec = {
  zh: ['新任务', '开始任务', '任务开始', '接下来的任务'],
  en: ['new task', 'start task', 'next task', "let's start", 'let us start', '<task>'],
};

/** Decisions (决定 选择 方案 策略 计划 设计 架构; and longer than 100 characters). */
export const DECISION_KEYWORDS: KeywordSpec = {
  zh: ['决定', '选择', '方案', '策略', '计划', '设计', '架构', '采用', '改用'],
  en: [
    'decide',
    'decided',
    'decision',
    'chose',
    'choose',
    'chosen',
    'approach',
    'plan',
    'strategy',
    'design',
    'architecture',
    'go with',
    'going with',
    "we'll use",
    'instead of',
    'opted',
  ],
};

/** User-marked importance (<Pin>, 重要, 关键, 必须, 注意). The words count only in
 *  messages a person wrote (and system prompts); <Pin> counts anywhere. */
export const PIN_MARKERS: KeywordSpec = { en: ['<pin>', '</pin>'] };
export const PIN_WORDS: KeywordSpec = {
  zh: ['重要', '关键', '必须', '注意', '务必', '切记'],
  en: ['important', 'critical', 'must', 'note:', 'do not forget', "don't forget"],
};

// ── Focus keywords ──────────────────────────────────────────────────────────────

export const FOCUS_NAMES: readonly FocusName[] = ['planning', 'implementation', 'testing', 'review'];

/** Stage patterns (planning requirement|plan|design|architecture, …) plus Chinese. */
export const FOCUS_STAGE_KEYWORDS: Record<FocusName, KeywordSpec> = {
  planning: { en: ['requirement*', 'plan*', 'design*', 'architect*'], zh: ['需求', '计划', '规划', '设计', '架构', '方案'] },
  implementation: { en: ['code*', 'implement*', 'develop*', 'build*'], zh: ['代码', '实现', '开发', '构建', '编写'] },
  testing: { en: ['test*', 'quality', 'validat*', 'verif*'], zh: ['测试', '质量', '验证', '校验'] },
  review: { en: ['review*', 'check*', 'audit*', 'optimi*'], zh: ['审查', '检查', '审计', '优化', '评审'] },
};

/** Role keywords (方案规划师, 编码专家, 测试工程师, 代码审查员), each an English term with
 *  its Chinese equivalent: the share of pairs present is the role score. */
export const FOCUS_ROLE_KEYWORDS: Record<FocusName, readonly KeywordSpec[]> = {
  planning: [
    { en: ['requirement*'], zh: ['需求'] },
    { en: ['architecture'], zh: ['架构'] },
    { en: ['design*'], zh: ['设计'] },
    { en: ['plan*'], zh: ['计划', '规划'] },
    { en: ['specification*'], zh: ['规范', '规格'] },
  ],
  implementation: [
    { en: ['code'], zh: ['代码'] },
    { en: ['implement*'], zh: ['实现'] },
    { en: ['function*'], zh: ['函数'] },
    { en: ['class', 'classes'], zh: ['类'] },
    { en: ['api', 'apis'], zh: ['接口'] },
    { en: ['development'], zh: ['开发'] },
  ],
  testing: [
    { en: ['test*'], zh: ['测试'] },
    { en: ['quality'], zh: ['质量'] },
    { en: ['validation'], zh: ['验证'] },
    { en: ['bug', 'bugs'], zh: ['缺陷', 'bug'] },
    { en: ['coverage'], zh: ['覆盖率'] },
  ],
  review: [
    { en: ['review*'], zh: ['审查', '评审'] },
    { en: ['quality'], zh: ['质量'] },
    { en: ['standard*'], zh: ['标准'] },
    { en: ['security'], zh: ['安全'] },
    { en: ['optimization', 'optimisation'], zh: ['优化'] },
  ],
};

/** Names a focus string may use for the four named focuses (English and Chinese). */
export const FOCUS_ALIASES: Readonly<Record<string, FocusName>> = {
  planning: 'planning',
  plan: 'planning',
  规划: 'planning',
  方案规划: 'planning',
  方案规划师: 'planning',
  implementation: 'implementation',
  implement: 'implementation',
  coding: 'implementation',
  实现: 'implementation',
  编码: 'implementation',
  编码专家: 'implementation',
  testing: 'testing',
  test: 'testing',
  tests: 'testing',
  测试: 'testing',
  测试工程师: 'testing',
  review: 'review',
  reviewing: 'review',
  审查: 'review',
  代码审查: 'review',
  代码审查员: 'review',
};
