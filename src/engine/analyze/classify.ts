// Seed 000 §4.1 content classification and §4.2 information density, English and Chinese.
// The seed's patterns matched substrings ("is" in "this"); these match whole words or stems
// (text/keywordMatcher.ts), and Chinese terms as substrings.

import type { Actionability, Classification, ContentType, TechnicalLevel } from '../result';
import { compileKeywords, type KeywordMatcher, type KeywordSpec } from '../text/keywordMatcher';
import { countSentences } from '../text/sentences';
import { cjkBigrams, cjkCharCount, hasCjk, latinWords } from '../text/terms';
import type { AnalyzeConstants } from './constants';

/** Content types in the seed's order; ties go to the earlier one (as Python's max does). */
export const CONTENT_TYPE_ORDER: readonly Exclude<ContentType, 'general'>[] = [
  'technical_specification',
  'code_implementation',
  'error_information',
  'user_interaction',
  'workflow_status',
  'documentation',
];

/** Seed 000 §4.1 classification patterns (three groups per type, merged) plus Chinese equivalents. */
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

/** Seed 000 §4.1 technical-level indicators plus Chinese. */
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

/** Seed 000 §4.1 actionability patterns plus Chinese. */
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

const typeMatchers: [Exclude<ContentType, 'general'>, KeywordMatcher][] = CONTENT_TYPE_ORDER.map((t) => [
  t,
  compileKeywords(CONTENT_TYPE_KEYWORDS[t]),
]);
const advanced = compileKeywords(TECHNICAL_LEVEL_KEYWORDS.advanced);
const intermediate = compileKeywords(TECHNICAL_LEVEL_KEYWORDS.intermediate);
const actionable = compileKeywords(ACTIONABLE_KEYWORDS);
const informational = compileKeywords(INFORMATIONAL_KEYWORDS);

const CAMEL_TERM = /\b[A-Z][a-z]+[A-Z][a-z]*\b/g;
const FENCED_CODE = /```[\s\S]*?```/g;
const INLINE_CODE = /(?<!`)`[^`\n]+`(?!`)/g;

/** Raw pattern score per content type (before picking the best). */
export type ContentTypeScores = Record<Exclude<ContentType, 'general'>, number>;

/** Facts about the structure of a message that sharpen classification. */
export interface ClassifyHints {
  /** Error signatures found in it (analyze/refs.ts). */
  errorSignatures: number;
  /** A tool result flagged as an error. */
  isErrorResult: boolean;
  /** Fenced code blocks, diffs and file-editing tool calls. */
  codeBlocks: number;
}

export interface ClassifyDetail {
  classification: Classification;
  actionableMatches: number;
  scores: ContentTypeScores;
}

/**
 * Classify one message's text. `lower` is `text.toLowerCase()` (passed in so callers that
 * already have it do not lower-case twice).
 */
export function classifyText(text: string, lower: string, hints: ClassifyHints, c: AnalyzeConstants): ClassifyDetail {
  const scores = {} as ContentTypeScores;
  let best: ContentType = 'general';
  let bestScore = 0;
  let bestKeywords: string[] = [];
  for (const [type, matcher] of typeMatchers) {
    let score = matcher.count(lower);
    if (type === 'error_information') {
      score += (hints.errorSignatures + (hints.isErrorResult ? 1 : 0)) * c.CLASSIFY_ERROR_SIGNATURE_WEIGHT;
    } else if (type === 'code_implementation') {
      score += hints.codeBlocks * c.CLASSIFY_CODE_BLOCK_WEIGHT;
    }
    scores[type] = score;
    if (score > bestScore) {
      bestScore = score;
      best = type;
      bestKeywords = [];
    }
  }
  if (best !== 'general') bestKeywords = typeMatchers.find(([t]) => t === best)![1].matches(lower).slice(0, 12);
  const confidence = best === 'general' ? c.CLASSIFY_GENERAL_CONFIDENCE : Math.min(bestScore / c.CLASSIFY_CONFIDENCE_SATURATION, 1);

  const technicalLevel: TechnicalLevel = advanced.has(lower) ? 'advanced' : intermediate.has(lower) ? 'intermediate' : 'basic';

  const actionableMatches = actionable.count(lower);
  const informationalMatches = informational.count(lower);
  const actionability: Actionability =
    actionableMatches > informationalMatches ? 'actionable' : informationalMatches > 0 ? 'informational' : 'historical';

  const density = informationDensity(text, lower, best, technicalLevel, c);
  return {
    classification: { contentType: best, confidence, keywords: bestKeywords, technicalLevel, actionability, density },
    actionableMatches,
    scores,
  };
}

function typeDensityMultiplier(type: ContentType, c: AnalyzeConstants): number {
  switch (type) {
    case 'technical_specification':
      return c.DENSITY_MULT_TECHNICAL_SPECIFICATION;
    case 'code_implementation':
      return c.DENSITY_MULT_CODE_IMPLEMENTATION;
    case 'error_information':
      return c.DENSITY_MULT_ERROR_INFORMATION;
    case 'user_interaction':
      return c.DENSITY_MULT_USER_INTERACTION;
    case 'workflow_status':
      return c.DENSITY_MULT_WORKFLOW_STATUS;
    case 'documentation':
      return c.DENSITY_MULT_DOCUMENTATION;
    default:
      return c.DENSITY_MULT_GENERAL;
  }
}

function levelDensityMultiplier(level: TechnicalLevel, c: AnalyzeConstants): number {
  return level === 'advanced' ? c.DENSITY_MULT_ADVANCED : level === 'intermediate' ? c.DENSITY_MULT_INTERMEDIATE : c.DENSITY_MULT_BASIC;
}

/** Number of code snippets: fenced blocks plus inline `code` spans outside them. */
export function countCodeSnippets(text: string): { fenced: number; inline: number } {
  if (!text.includes('`')) return { fenced: 0, inline: 0 };
  const fenced = text.match(FENCED_CODE)?.length ?? 0;
  const rest = fenced > 0 ? text.replace(FENCED_CODE, ' ') : text;
  return { fenced, inline: rest.match(INLINE_CODE)?.length ?? 0 };
}

/**
 * Seed 000 §4.2: (vocabulary diversity·0.3 + sentence complexity·0.3 + technical density·0.4)
 * × content-type multiplier × technical-level multiplier, capped at 1.
 * Words: English words plus CJK characters / CJK_CHARS_PER_WORD (Chinese has no spaces);
 * diversity counts English words and CJK bigrams. Technical density is capped at 1 so one
 * dense line cannot dominate. Long texts are measured on their first DENSITY_SAMPLE_CHARS.
 */
export function informationDensity(
  text: string,
  lower: string,
  type: ContentType,
  level: TechnicalLevel,
  c: AnalyzeConstants,
): number {
  if (text.length > c.DENSITY_SAMPLE_CHARS) {
    text = text.slice(0, c.DENSITY_SAMPLE_CHARS);
    lower = lower.slice(0, c.DENSITY_SAMPLE_CHARS);
  }
  if (!text.trim()) return 0;
  const latin = latinWords(lower);
  const cjk = hasCjk(lower);
  const bigrams = cjk ? cjkBigrams(lower) : [];
  const cjkWords = cjk ? cjkCharCount(lower) / c.CJK_CHARS_PER_WORD : 0;
  const words = latin.length + cjkWords;
  if (words === 0) return 0;
  const vocabulary = latin.length + bigrams.length;
  const unique = new Set(latin);
  for (const b of bigrams) unique.add(b);
  const diversity = vocabulary > 0 ? unique.size / vocabulary : 0;
  const sentences = Math.max(1, countSentences(text));
  const complexity = Math.min(words / sentences / c.DENSITY_SENTENCE_WORDS, 1);
  const camel = text.match(CAMEL_TERM)?.length ?? 0;
  const snippets = countCodeSnippets(text);
  const technical = Math.min((camel + (snippets.fenced + snippets.inline) * c.DENSITY_CODE_SNIPPET_WEIGHT) / words, 1);
  const base = diversity * c.DENSITY_DIVERSITY_WEIGHT + complexity * c.DENSITY_COMPLEXITY_WEIGHT + technical * c.DENSITY_TECHNICAL_WEIGHT;
  return Math.min(base * typeDensityMultiplier(type, c) * levelDensityMultiplier(level, c), 1);
}
