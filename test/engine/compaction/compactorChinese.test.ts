// A Chinese coding session (test/fixtures/chinese-refactor.json, OpenAI message format): the
// compacted summary must carry the first request whole, the error with what fixed it, the file
// that was changed, the user's open to-dos, the decisions and constraints (决定/必须/禁止), and
// cut long messages at Chinese sentence ends (。！？).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf, undoCompaction, type CompactOptions } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../../src/engine/conversation/model';
import { parseSummary } from '../../../src/engine/segments/parseSummary';
import { SEGMENT_CONSTANTS } from '../../../src/engine/segments/constants';
import { cutText } from '../../../src/engine/text/textCut';
import type { SectionName } from '../../../src/engine/sections';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { fixturesDir } from '../../helpers/transcripts';

const FILE = join(fixturesDir, 'chinese-refactor.json');
const FIRST_REQUEST =
  '请帮我重构 src/services/orderService.ts 里的金额计算逻辑。决定：所有金额改用 decimal.js 计算，不再用浮点数。必须保持对外接口 calculateTotal 的签名不变。禁止修改数据库表结构。';
const ERROR = "TypeError: Cannot read properties of undefined (reading 'amount')";
const FIX = '修复方法：在循环里跳过没有 price 的商品，并用 Decimal 累加。';
const LONG_MESSAGE_START = '另外说明一下背景。';

function load(): Conversation {
  return importTranscript(readFileSync(FILE, 'utf8'), { sourcePath: FILE }).conversation;
}

async function sectionsOf(
  opts: Partial<CompactOptions> = {},
): Promise<{ sections: Record<SectionName, string>; summary: string; conv: Conversation; archiveId: string; archive: MemoryArchive; messages: number }> {
  const conv = load();
  const archive = new MemoryArchive();
  // The sections' content is what is tested: the 'summary' strategy summarizes everything but the recent rounds.
  const result = await compactConversation(conv, { counter: await createTokenCounter(conv.meta.model), archive, strategy: 'summary', ...opts });
  expect(validateApiShape(result.conversation.messages).problems).toEqual([]);
  const summary = summaryTextOf(result.conversation)!;
  expect(summary).toBeDefined();
  return { sections: parseSummary(summary).sections, summary, conv, archiveId: result.archiveId, archive, messages: result.conversation.messages.length };
}

describe('the Chinese fixture', () => {
  it('is the OpenAI message format with about fifteen messages, tool calls paired', () => {
    const conv = load();
    expect(conv.format).toBe('openai');
    expect(conv.messages.length).toBeGreaterThanOrEqual(14);
    expect(conv.messages.filter((m) => m.toolCalls?.length).length).toBeGreaterThanOrEqual(3);
    expect(validateApiShape(conv.messages).ok).toBe(true);
  });
});

describe('compacting the Chinese session with the defaults', () => {
  it('keeps the first request whole in Primary Request and Intent', async () => {
    const { sections } = await sectionsOf();
    expect(sections['Primary Request and Intent']).toContain(FIRST_REQUEST);
  });

  it('names the changed file, and the error as fixed by editing it', async () => {
    const { sections } = await sectionsOf();
    expect(sections['Files and Code Sections']).toMatch(/`src\/services\/orderService\.ts` — edited/);
    const errorLine = sections['Errors and fixes'].split('\n').find((l) => l.includes(ERROR));
    expect(errorLine, sections['Errors and fixes']).toBeDefined();
    expect(errorLine).toMatch(/— fixed/);
  });

  it("lists the user's open to-dos in Pending Tasks even under the default (tight) budget", async () => {
    const { sections } = await sectionsOf();
    expect(sections['Pending Tasks']).toContain('任务：还需要给折扣计算补充单元测试。');
    expect(sections['Pending Tasks']).toContain('TODO: 更新 CHANGELOG.md');
  });

  it('cuts the long background message at a Chinese sentence end, with the marker', async () => {
    const { sections } = await sectionsOf();
    const entry = sections['All user messages'].split('\n- ').find((b) => b.replace(/^- /, '').startsWith(LONG_MESSAGE_START));
    expect(entry, sections['All user messages']).toBeDefined();
    const m = /^(.*?)\s*\[… ([\d,]+) more characters\]/s.exec(entry!);
    expect(m, entry).not.toBeNull();
    expect(m![1]!.trimEnd()).toMatch(/[。！？]$/);
    // The kept part is the message's own beginning, verbatim.
    const original = load().messages.find((x) => x.content.some((p) => p.type === 'text' && p.text.startsWith(LONG_MESSAGE_START)))!;
    const text = original.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(text.startsWith(m![1]!.replace(/^- /, '').trimEnd())).toBe(true);
    expect(Number(m![2]!.replace(/,/g, ''))).toBe(text.length - m![1]!.replace(/^- /, '').trimEnd().length);
  });

  it('undoes exactly', async () => {
    const { conv, archiveId, archive } = await sectionsOf();
    expect(JSON.stringify(await undoCompaction(archiveId, archive))).toBe(JSON.stringify(conv));
  });
});

describe('compacting the whole Chinese session with room to spare', () => {
  const roomy: Partial<CompactOptions> = { keepRecentRounds: 0, ratio: 0.9 };

  it('gives the error with the sentence that says how it was fixed', async () => {
    const { sections } = await sectionsOf(roomy);
    expect(sections['Errors and fixes']).toContain(ERROR);
    expect(sections['Errors and fixes']).toContain(FIX);
    expect(sections['Errors and fixes']).toContain('edited `src/services/orderService.ts`');
  });

  it('records the decisions (决定) in Problem Solving and the constraints (必须/禁止) in the request', async () => {
    const { sections } = await sectionsOf(roomy);
    expect(sections['Problem Solving']).toContain('决定：所有金额改用 decimal.js 计算，不再用浮点数。');
    expect(sections['Problem Solving']).toContain('我决定把 calculateTotal 内部改成 Decimal 运算');
    expect(sections['Primary Request and Intent']).toContain('必须保持对外接口 calculateTotal 的签名不变。');
    expect(sections['Primary Request and Intent']).toContain('禁止修改数据库表结构。');
  });

  it('keeps every user message whole when there is room, the last request pending (it is kept verbatim after the summary)', async () => {
    const { sections, conv } = await sectionsOf(roomy);
    const users = conv.messages.filter((m) => m.itemType === 'USER_MESSAGE').map((m) => m.content.map((p) => (p.type === 'text' ? p.text : '')).join(''));
    expect(users).toHaveLength(4);
    for (const u of users.slice(0, 3)) expect(sections['All user messages']).toContain(u);
    expect(sections['Pending Tasks']).toContain('Latest request (kept verbatim after this summary), still being worked on: 先做测试吧，CHANGELOG 明天再说。');
    expect(sections['Current Work']).toContain('test/orderService.test.ts');
  });
});

describe('cutting Chinese text', () => {
  it('ends at 。！？ for every limit that leaves a sentence end within the look-back', () => {
    const conv = load();
    const text = conv.messages[4]!.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(text.startsWith(LONG_MESSAGE_START)).toBe(true);
    for (let limit = 20; limit < text.length; limit += 7) {
      const cut = cutText(text, limit, SEGMENT_CONSTANTS);
      expect(cut.cut).toBe(true);
      const kept = cut.text.replace(/\s*\[… [\d,]+ more characters\]$/, '');
      expect(kept.length).toBeLessThanOrEqual(limit);
      expect(kept, `limit ${limit}`).toMatch(/[。！？]$/);
      expect(text.startsWith(kept)).toBe(true);
      expect(cut.omitted).toBe(text.length - kept.length);
    }
  });
});
