// The content keyword lists in English and Chinese: classification, technical level,
// actionability, criticality, dependency, outbound references and temporal categories — what
// contentScan.ts counts in one pass over each message. The tier, role-score, key-event and focus
// lists are in keywords.ts. Syntax: text/keywordMatcher.ts (English whole words, "stem*",
// "word:"; Chinese substrings).

import type { KeywordSpec } from '../text/keywordMatcher';
import type { ContentType, TechnicalLevel, TemporalCategory } from '../result';

// ── Classification ─────────────────────────────────────────────────────────────

/** Classification patterns (three groups per type, merged) plus Chinese equivalents. */
export const CONTENT_TYPE_KEYWORDS: Record<Exclude<ContentType, 'general'>, KeywordSpec> = {
  technical_specification: {
    en: [
      'api',
      'apis',
      'interface*',
      'schema*',
      'protocol*',
      'architecture*',
      'design*',
      'pattern*',
      'requirement*',
      'specification*',
      'spec',
      'specs',
      'standard*',
    ],
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
