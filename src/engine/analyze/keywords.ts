// Keyword lists in English and Chinese, and the two rules built directly on them:
// the importance tiers and the acknowledgement test.
// Syntax of the lists: text/keywordMatcher.ts (English whole words, "stem*", "word:"; Chinese substrings).

import { compileKeywords, type KeywordSpec } from '../text/keywordMatcher';
import type { FocusName } from './analysis';
import type { ContentType, TechnicalLevel, TemporalCategory } from '../result';
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
  en: [
    'code',
    'plan',
    'plans',
    'planned',
    'design',
    'designs',
    'designed',
    'implement*',
    'change',
    'changes',
    'changed',
    'add',
    'adds',
    'added',
    'done',
  ],
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
  ],
};

const tierExtreme = compileKeywords(TIER_EXTREME_KEYWORDS);
const tierHigh = compileKeywords(TIER_HIGH_KEYWORDS);
const tierMedium = compileKeywords(TIER_MEDIUM_KEYWORDS);

/** Punctuation, symbols (emoji included), emoji joiners/modifiers and whitespace. */
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
  return text.length <= 400 && PROMPT_ANSWER.test(text.trim());
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

// ── Classification ─────────────────────────────────────────────────────────────

/** Classification patterns (three groups per type, merged) plus Chinese equivalents. */
export const CONTENT_TYPE_KEYWORDS: Record<Exclude<ContentType, 'general'>, KeywordSpec> = {
  technical_specification: {
    en: ['api', 'apis', 'interface*', 'schema*', 'protocol*', 'architecture*', 'design*', 'pattern*', 'requirement*', 'specification*', 'spec', 'specs', 'standard*'],
    zh: ['接口', '协议', '架构', '设计', '模式', '需求', '规范', '规格', '标准'],
  },
  code_implementation: {
    en: ['function*', 'class', 'classes', 'method*', 'variable*', 'import*', 'export*', 'module*', 'implement*', 'code', 'codes', 'coded', 'coding', 'syntax'],
    zh: ['函数', '类', '方法', '变量', '导入', '导出', '模块', '实现', '代码', '语法'],
  },
  error_information: {
    en: ['error*', 'exception*', 'fail*', 'bug', 'bugs', 'fix', 'fixes', 'fixed', 'fixing', 'solve*', 'resolv*', 'debug*', 'issue*', 'problem*', 'trouble*'],
    zh: ['错误', '异常', '失败', 'bug', '修复', '解决', '调试', '问题', '故障', '报错'],
  },
  user_interaction: {
    en: ['user*', 'question*', 'ask', 'asks', 'asked', 'asking', 'request*', 'confirm*', 'approv*', 'feedback', 'input*', 'output*', 'response*'],
    zh: ['用户', '提问', '请问', '请求', '确认', '批准', '反馈', '输入', '输出', '回复', '回答'],
  },
  workflow_status: {
    en: ['task*', 'workflow*', 'progress*', 'complete*', 'pending', 'running', 'status*', 'state', 'states', 'phase*'],
    zh: ['任务', '流程', '进度', '完成', '待办', '进行中', '运行中', '状态', '阶段'],
  },
  documentation: {
    en: ['document*', 'readme*', 'guide*', 'instruction*', 'tutorial*', 'example*', 'reference*', 'manual*', 'help'],
    zh: ['文档', '说明', '指南', '教程', '示例', '例子', '参考', '手册', '帮助'],
  },
};

/** Technical-level indicators plus Chinese. */
export const TECHNICAL_LEVEL_KEYWORDS: Record<Exclude<TechnicalLevel, 'basic'>, KeywordSpec> = {
  advanced: {
    en: ['algorithm*', 'optimi*', 'performance', 'architecture*', 'scalab*', 'distributed', 'security', 'encrypt*', 'authenticat*'],
    zh: ['算法', '优化', '性能', '架构', '可扩展', '分布式', '安全', '加密', '认证'],
  },
  intermediate: {
    en: ['function*', 'class', 'classes', 'module*', 'api', 'apis', 'database*', 'query', 'queries', 'index*', 'framework*', 'librar*', 'dependenc*'],
    zh: ['函数', '模块', '接口', '数据库', '查询', '索引', '框架', '依赖'],
  },
};

/** Actionability patterns plus Chinese. */
export const ACTIONABLE_KEYWORDS: KeywordSpec = {
  en: [
    'need to',
    'needs to',
    'should',
    'must',
    'required',
    'implement*',
    'create*',
    'build',
    'builds',
    'develop*',
    'fix',
    'fixes',
    'fixing',
    'update*',
    'modify*',
    'change',
    'changes',
    'todo',
    'to do',
    'task*',
    'action*',
    'next step*',
  ],
  zh: ['需要', '应该', '必须', '要求', '实现', '创建', '构建', '开发', '修复', '更新', '修改', '待办', '任务', '下一步', '请'],
};

export const INFORMATIONAL_KEYWORDS: KeywordSpec = {
  en: ['is', 'are', 'was', 'were', 'description*', 'explanation*', 'overview*', 'example*', 'sample*', 'demo*'],
  zh: ['是', '描述', '说明', '解释', '概述', '示例', '例子'],
};

// ── Importance ─────────────────────────────────────────────────────────────────

/** Criticality patterns plus Chinese. */
export const CRITICALITY_KEYWORDS: KeywordSpec = {
  en: [
    'critical*',
    'important',
    'essential',
    'required',
    'must',
    'error*',
    'fail*',
    'bug',
    'bugs',
    'issue*',
    'problem*',
    'security',
    'vulnerab*',
    'risk*',
    'performance',
    'optimi*',
    'bottleneck*',
  ],
  zh: ['关键', '重要', '必要', '必须', '错误', '失败', '异常', 'bug', '问题', '安全', '漏洞', '风险', '性能', '优化', '瓶颈'],
};

/** Dependency indicators plus Chinese. */
export const DEPENDENCY_KEYWORDS: KeywordSpec = {
  en: ['depend*', 'require', 'requires', 'need', 'needs', 'prerequisite*', 'before', 'after', 'then', 'next', 'input*', 'output*', 'parameter*', 'result*'],
  zh: ['依赖', '需要', '前提', '之前', '之后', '然后', '接下来', '输入', '输出', '参数', '结果'],
};

/** Outbound reference words plus Chinese. */
export const OUTBOUND_REFERENCE_KEYWORDS: KeywordSpec = {
  en: ['see', 'refer*', 'mentioned', 'above', 'below'],
  zh: ['参见', '参考', '见上', '如上', '如下', '上面', '下面', '上述', '提到'],
};

// ── Temporal categories ────────────────────────────────────────────────────────

/** Category patterns plus Chinese, checked in this order. */
export const TEMPORAL_KEYWORDS: Record<Exclude<TemporalCategory, 'timeless'>, KeywordSpec> = {
  immediate: {
    en: ['now', 'current', 'currently', 'today', 'urgent*', 'asap', 'error*', 'fail*', 'broken', 'issue*', 'need to', 'must do', 'required now'],
    zh: ['现在', '当前', '今天', '紧急', '马上', '立即', '立刻', '错误', '失败', '报错', '坏了', '需要'],
  },
  current_phase: {
    en: ['this phase', 'current stage', 'working on', 'implementing', 'developing', 'building', 'in progress', 'ongoing'],
    zh: ['本阶段', '当前阶段', '正在', '进行中', '实现中', '开发中'],
  },
  future_relevant: {
    en: ['next', 'later', 'future', 'plan*', 'will', 'after', 'then', 'subsequent*', 'todo', 'to do', 'pending', 'upcoming'],
    zh: ['下一步', '接下来', '之后', '以后', '将来', '未来', '计划', '待办', '稍后', '然后'],
  },
  historical: {
    en: ['was', 'were', 'had', 'did', 'completed', 'previous*', 'before', 'earlier', 'history', 'past', 'old'],
    zh: ['之前', '以前', '已经', '曾经', '完成了', '历史', '过去', '原来'],
  },
};

