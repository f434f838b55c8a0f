// The analyzer on the shared real transcripts (test/helpers/transcripts.ts).
// Part 1 reads the raw files (every JSON string / aider turn) and checks the reference
// extractors on real tool traffic. Part 2 runs analyzeConversation on every transcript as the
// importers read it (src/engine/conversation/importers, `importTranscript`); it runs as soon as
// the importers exist and is skipped until then.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ConversationAnalysis } from '../../../src/engine/analyze/analysis';
import { analyzeConversation } from '../../../src/engine/analyze/analyzeConversation';
import { ANALYZE_CONSTANTS } from '../../../src/engine/analyze/constants';
import { roleBase } from '../../../src/engine/analyze/roleScore';
import { extractErrorSignatures, extractFilePaths, extractIdentifiers } from '../../../src/engine/analyze/refs';
import type { ImportResult, Message } from '../../../src/engine/conversation/model';
import { splitSentences } from '../../../src/engine/text/sentences';
import { repoRoot, transcriptFiles, transcriptPath } from '../../helpers/transcripts';

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectStrings(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) collectStrings(v, out);
  }
}

/** Every text of a transcript file, without interpreting its format. */
function rawTexts(rel: string): string[] {
  const raw = readFileSync(transcriptPath(rel), 'utf8');
  const out: string[] = [];
  if (rel.endsWith('.jsonl')) {
    for (const line of raw.split('\n')) if (line.trim()) collectStrings(JSON.parse(line), out);
  } else if (rel.endsWith('.json')) {
    collectStrings(JSON.parse(raw), out);
  } else {
    out.push(...raw.split(/\n(?=#### )/));
  }
  return out;
}

describe('reference extractors on real transcripts (raw text)', () => {
  it('find the files, identifiers and errors of a SWE-bench trajectory', () => {
    const texts = rawTexts('mini-swe-agent/django__django-11138.traj.json');
    const files = new Set(texts.flatMap((t) => extractFilePaths(t)));
    const errors = new Set(texts.flatMap((t) => extractErrorSignatures(t)));
    const ids = new Set(texts.flatMap((t) => extractIdentifiers(t)));
    expect(files).toContain('django/db/backends/mysql/operations.py');
    expect(files).toContain('django/db/backends/sqlite3/base.py');
    expect([...errors].some((e) => e.startsWith('sqlite3.OperationalError:'))).toBe(true);
    expect(errors).toContain('exit code 1');
    expect(ids).toContain('TIME_ZONE');
    // No URL or version number sneaks in as a file.
    for (const f of files) {
      expect(f).not.toMatch(/^https?:/);
      expect(f).not.toMatch(/^\d+(\.\d+)+$/);
    }
  });

  it('find edited files and failing commands in a Claude Code session', () => {
    const texts = rawTexts('claude-code/kiliman__claude-transcript__test2.jsonl');
    const files = new Set(texts.flatMap((t) => extractFilePaths(t)));
    expect(files.size).toBeGreaterThan(10);
    expect([...files].some((f) => f.endsWith('package.json'))).toBe(true);
  });

  it('run on every transcript, and split every text into sentences that cover it', () => {
    for (const rel of transcriptFiles()) {
      for (const t of rawTexts(rel).slice(0, 400)) {
        extractFilePaths(t);
        extractIdentifiers(t);
        extractErrorSignatures(t);
        const sentences = splitSentences(t);
        // Splitting only cuts and trims: the non-space characters all survive, in order.
        expect(sentences.join('').replace(/\s+/g, '')).toBe(t.replace(/\s+/g, ''));
      }
    }
  });
});

type ImportFn = (text: string, opts: { sourcePath?: string; wholeFile?: boolean }) => ImportResult;

async function loadImporter(): Promise<ImportFn | undefined> {
  for (const name of ['importTranscript.ts', 'detect.ts', 'index.ts']) {
    const file = join(repoRoot, 'src', 'engine', 'conversation', 'importers', name);
    if (!existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as { importTranscript?: ImportFn };
    if (typeof mod.importTranscript === 'function') return mod.importTranscript;
  }
  return undefined;
}

const importTranscript = await loadImporter();

describe.skipIf(!importTranscript)('analyzeConversation on every real transcript (via the importers)', () => {
  const analyses = new Map<string, { messages: Message[]; analysis: ConversationAnalysis }>();
  const get = (rel: string) => {
    let hit = analyses.get(rel);
    if (!hit) {
      const path = transcriptPath(rel);
      const { conversation } = importTranscript!(readFileSync(path, 'utf8'), { sourcePath: path, wholeFile: true });
      hit = { messages: conversation.messages, analysis: analyzeConversation(conversation.messages) };
      analyses.set(rel, hit);
    }
    return hit;
  };

  it.each(transcriptFiles())('%s: one analysis per message, every score in range', (rel) => {
    const { messages, analysis } = get(rel);
    expect(analysis.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    for (const m of analysis.messages) {
      const im = m.importance;
      for (const v of [im.criticality, im.dependency, im.uniqueness, im.actionability, im.overall, im.temporal, im.relevance, im.tier]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      for (const j of m.referencedBy) expect(j).toBeGreaterThan(m.index);
      // A tool result is never a user message, whatever role it travelled with.
      if (messages[m.index]!.toolResult) {
        expect(m.keyEvents).not.toContain('user_input');
        expect(roleBase(messages[m.index]!, ANALYZE_CONSTANTS)).toBe(ANALYZE_CONSTANTS.ROLE_BASE_TOOL_RESULT);
      }
    }
  });

  it.each(transcriptFiles().filter((f) => f.startsWith('mini-swe-agent/') || f.startsWith('claude-code/')))('%s is a code task', (rel) => {
    const { messages, analysis } = get(rel);
    expect(analysis.taskType).toBe('code');
    // Confidence grows with the evidence: a short main thread (sub-agent work excluded) has little.
    const calls = messages.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0);
    expect(analysis.taskTypeEvidence.confidence).toBeGreaterThan(calls >= 20 ? 0.5 : 0);
  });

  it.each(transcriptFiles().filter((f) => f.startsWith('longmemeval/')))('%s is a conversation', (rel) => {
    expect(get(rel).analysis.taskType).toBe('conversation');
  });

  it.each(transcriptFiles().filter((f) => f.startsWith('mini-swe-agent/')))('%s: the task starts, errors are found, the submission completes it', (rel) => {
    const { analysis } = get(rel);
    const events = analysis.messages.flatMap((m) => m.keyEvents);
    expect(events.filter((e) => e === 'task_start').length).toBeGreaterThanOrEqual(1);
    expect(events).toContain('error');
    expect(events).toContain('key_tool_result');
    expect(events).toContain('task_complete');
  });

  it('is deterministic on a real transcript', () => {
    const rel = 'mini-swe-agent/pytest-dev__pytest-7490.traj.json';
    const { messages, analysis } = get(rel);
    expect(analyzeConversation(structuredClone(messages))).toEqual(analysis);
  });
});
