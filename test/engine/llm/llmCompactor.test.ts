// The LLM summarizer inside a real compaction (compactConversation) on a real transcript, over
// real HTTP: a model that drops the file paths still yields a summary holding them, and the
// loss report names what it missed; a cancelled compaction returns nothing and writes nothing.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf, undoCompaction } from '../../../src/engine/compactor';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation } from '../../../src/engine/conversation/model';
import { missingFacts } from '../../../src/engine/validate/factMatch';
import { emptySectionTexts } from '../../../src/engine/sections';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import type { CachedTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { createOpenAiSummarizer } from '../../../src/summarizers/openaiSummarizer';
import { llmReply } from '../../helpers/llmFixtures';
import { reply, startOpenAiServer, type FakeOpenAiServer, type SeenRequest } from '../../helpers/openaiServer';
import { transcriptPath } from '../../helpers/transcripts';

const KEY = 'sk-test-compactor-0c9e2f41d7';
const REL = 'mini-swe-agent/django__django-11138.traj.json';

let server: FakeOpenAiServer;
let counter: CachedTokenCounter;
let conversation: Conversation;
let before: string;

beforeAll(async () => {
  server = await startOpenAiServer();
  counter = await createTokenCounter('gpt-4o');
  conversation = importTranscript(readFileSync(transcriptPath(REL), 'utf8'), { sourcePath: REL }).conversation;
  before = JSON.stringify(conversation);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function mustKeepOf(req: SeenRequest): Map<string, string[]> {
  const prompt = req.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
  const block = /<must_keep>\n([\s\S]*?)\n<\/must_keep>/.exec(prompt)?.[1] ?? '';
  const out = new Map<string, string[]>();
  let kind = '';
  for (const line of block.split('\n')) {
    if (line.endsWith(':') && !line.startsWith('- ')) out.set((kind = line.slice(0, -1)), []);
    else if (line.startsWith('- ')) out.get(kind)?.push(line.slice(2).replace(/…$/, ''));
  }
  return out;
}

/** A model that writes every must-keep item it was shown except the file paths. */
const dropsFilePaths = reply.from((req) => {
  const keep = mustKeepOf(req);
  const s = emptySectionTexts();
  s['Primary Request and Intent'] = '- Fix the TIME_ZONE handling of the database backends.';
  s['Key Technical Concepts'] = (keep.get('Technical terms') ?? []).map((t) => `- ${t}`).join('\n') || '- Django database backends';
  s['Files and Code Sections'] = '- The MySQL and SQLite backend operations modules.';
  s['Errors and fixes'] = (keep.get('Errors') ?? []).map((e) => `- ${e}`).join('\n') || 'None.';
  s['Problem Solving'] = '- Reproduced the conversion bug and patched the backends.';
  s['All user messages'] = (keep.get('User messages') ?? []).map((u) => `- ${u}`).join('\n') || 'None.';
  s['Pending Tasks'] = (keep.get('Pending items') ?? []).map((p) => `- ${p}`).join('\n') || 'None.';
  s['Current Work'] = 'Running the test suite.';
  return llmReply(s);
});

describe('the OpenAI-compatible summarizer in compactConversation', () => {
  it('a summary that drops file paths: they are merged back, the loss report names them, nothing is lost', async () => {
    server.script(dropsFilePaths);
    const archive = new MemoryArchive();
    const summarizer = createOpenAiSummarizer({ baseURL: server.baseURL, apiKey: KEY, model: 'fake-model-1', stream: true });
    const result = await compactConversation(conversation, { counter, archive, ratio: 0.1, summarizer, now: '2025-01-01T00:00:00Z' });

    expect(JSON.stringify(conversation)).toBe(before);
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(result.summarizer).toMatchObject({ name: 'openai', model: 'fake-model-1' });
    expect(result.summarizer.fallbackReason).toBeUndefined();
    expect(result.summarizer.inputTokens).toBeGreaterThan(0);

    const shownPaths = server.requests.flatMap((r) => mustKeepOf(r).get('File paths') ?? []);
    expect(shownPaths.length).toBeGreaterThan(0);
    const merged = result.loss.mergedBack.filter((f) => f.kind === 'filePath').map((f) => f.value);
    // The loss report names every path the model left out …
    for (const p of shownPaths) expect(merged).toContain(p);
    // … and the summary holds them all the same.
    const summary = summaryTextOf(result.conversation)!;
    for (const p of shownPaths) expect(summary).toContain(p);
    expect(missingFacts(result.loss.mergedBack, summary)).toEqual([]);

    // The original is whole in the archive.
    expect(JSON.stringify(await undoCompaction(result.archiveId, archive))).toBe(before);
  });

  it('cancel mid-request: the compaction rejects, nothing is archived, the conversation is untouched', async () => {
    server.script(reply.hang());
    const archive = new MemoryArchive();
    const summarizer = createOpenAiSummarizer({ baseURL: server.baseURL, apiKey: KEY, model: 'fake-model-1', stream: true });
    const ac = new AbortController();
    const pending = compactConversation(conversation, { counter, archive, ratio: 0.1, summarizer, signal: ac.signal, now: '2025-01-01T00:00:00Z' });
    await server.waitForRequests(1);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(archive.size).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(conversation)).toBe(before);
  });

  it('a failing endpoint: the extractive summary, with the reason in the result', async () => {
    server.script(reply.error(401, { message: 'invalid key' }));
    const archive = new MemoryArchive();
    const summarizer = createOpenAiSummarizer({ baseURL: server.baseURL, apiKey: KEY, model: 'fake-model-1' });
    const result = await compactConversation(conversation, { counter, archive, ratio: 0.1, summarizer, now: '2025-01-01T00:00:00Z' });
    expect(result.summarizer.fallbackReason).toMatch(/rejected the API key \(401\)/);
    expect(result.loss.mergedBack).toEqual([]);
    expect(JSON.stringify(await undoCompaction(result.archiveId, archive))).toBe(before);
  });
});
