// Keyword tiers (extreme 1.0 for decisions and rules, high 0.7 for code and results, medium 0.4
// for discussion, low 0.1 for a bare acknowledgement, else 0.5) and the acknowledgement rule, in
// English and Chinese, and whole-word matching (plain substring matching found "is" in "this").

import { describe, expect, it } from 'vitest';
import { ANALYZE_CONSTANTS, resolveConstants } from '../../../src/engine/analyze/constants';
import { isAcknowledgementText, isPromptAnswer, keywordTier } from '../../../src/engine/analyze/keywords';
import { compileKeywords } from '../../../src/engine/text/keywordMatcher';

const C = ANALYZE_CONSTANTS;
const ack = (t: string) => isAcknowledgementText(t, C.ACK_MAX_CHARS);
const tier = (t: string) => keywordTier(t.toLowerCase(), ack(t), C);

describe('acknowledgements', () => {
  it.each(['ok', 'OK!', 'Okay.', 'okay thanks', 'Thanks!', 'thank you', 'Thank you very much!', 'Got it 👍', 'sure', 'Great!', 'yes', 'y', '👍', '👍🏽', 'LGTM'])(
    'English %j is an acknowledgement',
    (t) => {
      expect(ack(t)).toBe(true);
    },
  );

  it.each(['好的', '收到', '好的，谢谢', '收到了！', '嗯嗯', '谢谢', '好', '好的呀～', '非常感谢！', '抱歉', '对不起', '好的 thanks'])(
    'Chinese %j is an acknowledgement',
    (t) => {
      expect(ack(t)).toBe(true);
    },
  );

  it.each([
    'ok, now fix the bug in src/a.ts',
    'This looks ok but the test fails',
    'okay so I think we should redesign the whole cache layer',
    'thanks for the detailed explanation of the cache design',
    'yo',
    'yesterday',
    'okapi',
    '好的，请把登录模块的错误修复一下',
    '收到，下一步实现缓存',
    '谢谢你的方案，我们决定采用它',
    '',
    '   ',
    '?',
  ])('%j is not an acknowledgement', (t) => {
    expect(ack(t)).toBe(false);
  });

  it('is short by rule: ack words past ACK_MAX_CHARS are a message, and the limit is a constant', () => {
    const many = Array.from({ length: 14 }, () => 'ok').join(' '); // 28 letters
    expect(ack(many)).toBe(false);
    expect(isAcknowledgementText(many, 40)).toBe(true);
    expect(ack('ok ok ok')).toBe(true);
    expect(ack('好的'.repeat(13))).toBe(false); // 26 characters
  });
});

describe('prompt answers', () => {
  it.each([
    "Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: skip",
    "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y",
    'Create new file? (Y)es/(N)o [Yes]: y',
    'Proceed with the migration? [y/N]: y',
  ])('%s is an answer at a prompt', (t) => expect(isPromptAnswer(t)).toBe(true));

  it.each([
    'Should we add file to the chat? I think yes.',
    'Please fix the prompt "Add file to the chat? (Y)es/(N)o" so it defaults to no, and add a test.\nIt should also log.',
    'y',
    '',
  ])('%j is not', (t) => expect(isPromptAnswer(t)).toBe(false));
});

describe('keyword tiers', () => {
  it.each([
    '决定：使用 PostgreSQL',
    '规则: 不要提交 .env 文件',
    '架构:前后端分离',
    '任务：实现登录',
    '必须使用 TypeScript',
    '这一点很重要',
    '禁止直接推送到 main',
    'Decision: we use Postgres',
    'Rule: no default exports',
    'You must run the linter first',
    'Never commit secrets',
    'This is important for the release',
    'The architecture has three layers',
    'One requirement is offline support',
  ])('%j is extreme (1.0)', (t) => {
    expect(tier(t)).toMatchObject({ tier: 1, name: 'extreme' });
  });

  it.each(['代码：见下方', '方案: 先做缓存', '设计：单例', '我已经完成：登录页', 'I implemented the parser', 'Here is the code', 'Added a retry', 'done'])(
    '%j is high (0.7)',
    (t) => {
      expect(tier(t)).toMatchObject({ tier: 0.7, name: 'high' });
    },
  );

  it.each(['我觉得还行', '讨论: 下周再说', '他说了什么？', 'I think so', 'We discussed it yesterday'])('%j is medium (0.4)', (t) => {
    expect(tier(t)).toMatchObject({ tier: 0.4, name: 'medium' });
  });

  it.each(['ok', '好的', '收到', 'thanks!', '👍'])('%j is low (0.1)', (t) => {
    expect(tier(t)).toMatchObject({ tier: 0.1, name: 'low' });
  });

  it.each(['What time is it in Tokyo?', '今天天气怎么样？', 'hello there'])('%j keeps the default (0.5)', (t) => {
    expect(tier(t)).toMatchObject({ tier: 0.5, name: 'default' });
  });

  it('checks the tiers from the top: a rule beats code, code beats discussion', () => {
    expect(tier('规则：代码必须有测试').name).toBe('extreme');
    expect(tier('我觉得代码: 可以合并').name).toBe('high');
  });

  it('a long message that contains "ok" or 好 is not low', () => {
    expect(tier('ok so the weather in Lisbon was lovely in May').tier).toBe(0.5);
    expect(tier('好的，那我们下周三见面再聊聊旅行安排').tier).toBe(0.5);
  });

  it('tier values come from the named constants', () => {
    const c = resolveConstants({ TIER_EXTREME: 0.9, TIER_LOW: 0, TIER_DEFAULT: 0.3 });
    expect(keywordTier('must', false, c).tier).toBe(0.9);
    expect(keywordTier('ok', true, c).tier).toBe(0);
    expect(keywordTier('hello', false, c).tier).toBe(0.3);
  });
});

describe('keyword matching', () => {
  it('matches English whole words, not substrings ("is" is not inside "this")', () => {
    const m = compileKeywords({ en: ['is', 'must', 'fix'] });
    expect(m.count('this mustard fixture')).toBe(0);
    expect(m.count('it is a must: fix it')).toBe(3);
  });

  it('stems, phrases and colons', () => {
    const m = compileKeywords({ en: ['fail*', 'need to', 'decision:'] });
    expect(m.matches('it failed, failures, we need   to act. decision : yes')).toEqual(['failed', 'failures', 'need to', 'decision :']);
    expect(m.has('decision is pending')).toBe(false);
  });

  it('Chinese terms match inside text without spaces, with ASCII or full-width colons', () => {
    const m = compileKeywords({ zh: ['决定:', '错误'] });
    expect(m.count('我们决定：用方案a，也决定:不改错误处理')).toBe(3);
    expect(m.has('我们决定用方案a')).toBe(false);
  });

  it('maps matches back to the spec terms (longest wins), in spec order', () => {
    const m = compileKeywords({ en: ['error', 'errors', 'thank', 'thank you'], zh: ['完成', '完成了'] });
    expect(m.matchedTerms('errors and an error; thank you; 完成了')).toEqual(['error', 'errors', 'thank you', '完成了']);
  });

  it('terms sharing their first letters keep their order: the longer, then the stem or the shorter', () => {
    const m = compileKeywords({ en: ['implement*', 'implementation', 'need', 'need to', 'needs to', 'fix', 'fixes', 'file*'] });
    expect(m.matches('implementation implemented need to needs to needle fixes fix files')).toEqual([
      'implementation',
      'implemented',
      'need to',
      'needs to',
      'fixes',
      'fix',
      'files',
    ]);
    expect(m.count('implementations')).toBe(1);
  });

  it('a Latin term of the Chinese list matches in a text with CJK characters and in one without', () => {
    const m = compileKeywords({ en: ['debug*'], zh: ['bug', '错误'] });
    // "debug" is taken whole before "bug" could match inside it, with or without CJK around.
    expect(m.matches('a bug, debugging')).toEqual(['bug', 'debugging']);
    expect(m.matches('错误 a bug, debugging')).toEqual(['错误', 'bug', 'debugging']);
    expect(m.matchedTerms('a bug')).toEqual(['bug']);
    expect(m.has('调试')).toBe(false);
    expect(m.has('有错误')).toBe(true);
  });
});
