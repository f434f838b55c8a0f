// Benchmark and test inputs drawn from the shared public transcripts (MANIFEST.md there).
// The importers are not needed to get at the text: every string in a JSON/JSONL transcript
// is text some model was or could be sent (message content, tool input and output, ids),
// and aider's Markdown splits into turns at its `#### ` user lines.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTranscriptsDir as findTranscriptsDirFrom, listTranscripts } from '../../scripts/transcripts.mjs';
import type { Message } from '../../src/engine/conversation/model';
import { chineseParagraphs } from './chineseText';

/** The shared transcripts beside the repository (npm run bench runs from its root), or the
 *  folder in CTXC_TRANSCRIPTS. */
export function findTranscriptsDir(): string {
  return findTranscriptsDirFrom(process.cwd());
}

export { listTranscripts };

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectStrings(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) collectStrings(v, out);
  }
}

/** The texts of one transcript file: every non-empty JSON string, or aider turns. */
export function transcriptTexts(path: string): string[] {
  const raw = readFileSync(path, 'utf8');
  const out: string[] = [];
  if (path.endsWith('.jsonl')) {
    raw.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        collectStrings(JSON.parse(line), out);
      } catch (e) {
        throw new Error(`${path}:${i + 1}: expected one JSON object per line (${(e as Error).message})`, { cause: e });
      }
    });
  } else if (path.endsWith('.json')) {
    collectStrings(JSON.parse(raw), out);
  } else {
    for (const turn of raw.split(/\n(?=#### )/)) if (turn) out.push(turn);
  }
  return out;
}

export interface CorpusPart {
  kind: 'prose' | 'code and logs' | 'json' | 'chinese';
  texts: string[];
}

export interface Corpus {
  /** The corpus as messages would carry it: one string per text. */
  texts: string[];
  bytes: number;
  parts: { kind: CorpusPart['kind']; texts: number; bytes: number }[];
}

export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** A mixed corpus of about `targetBytes`: prose (LongMemEval chats, aider turns), code and
 *  logs (SWE-agent and Claude Code tool traffic), raw JSON (Claude Code lines as written),
 *  and Chinese (written for this project; the transcripts have none), drawn in turn. */
export function mixedCorpus(dir: string, targetBytes: number): Corpus {
  const files = listTranscripts(dir);
  const pick = (pred: (f: string) => boolean) => files.filter(pred).map((f) => join(dir, f));
  const prose = [...pick((f) => f.startsWith('longmemeval/')), ...pick((f) => f.startsWith('aider/'))].flatMap(transcriptTexts);
  const code = [...pick((f) => f.startsWith('mini-swe-agent/')), ...pick((f) => f.startsWith('openhands/'))]
    .flatMap(transcriptTexts)
    .filter((t) => t.length > 40);
  const json = pick((f) => f.endsWith('.jsonl')).flatMap((p) => readFileSync(p, 'utf8').split('\n').filter(Boolean));
  const chinese = chineseParagraphs(Math.ceil(targetBytes / 3 / 10));
  const parts: CorpusPart[] = [
    { kind: 'prose', texts: prose.filter((t) => t.length > 40) },
    { kind: 'code and logs', texts: code },
    { kind: 'json', texts: json },
    { kind: 'chinese', texts: chinese },
  ];
  // Shares of the target: Chinese ≈ 10%, the rest evenly.
  const share: Record<CorpusPart['kind'], number> = { prose: 0.3, 'code and logs': 0.3, json: 0.3, chinese: 0.1 };
  const texts: string[] = [];
  const summary: Corpus['parts'] = [];
  for (const part of parts) {
    let bytes = 0;
    let n = 0;
    for (const t of part.texts) {
      if (bytes >= targetBytes * share[part.kind]) break;
      texts.push(t);
      bytes += utf8Length(t);
      n++;
    }
    summary.push({ kind: part.kind, texts: n, bytes });
  }
  // Interleave deterministically so no kind sits in one block (memo effects stay realistic).
  const mixed: string[] = [];
  const stride = 7;
  for (let start = 0; start < stride; start++) for (let i = start; i < texts.length; i += stride) mixed.push(texts[i]!);
  return { texts: mixed, bytes: summary.reduce((a, p) => a + p.bytes, 0), parts: summary };
}

/** A conversation of plain messages built from transcript texts until `enough(messages)`
 *  says stop: user/assistant/tool in turn, as an agent session looks. */
export function conversationFrom(texts: readonly string[], enough: (messages: Message[]) => boolean): Message[] {
  const messages: Message[] = [];
  const kinds: [Message['role'], Message['itemType']][] = [
    ['user', 'USER_MESSAGE'],
    ['assistant', 'ASSISTANT_MESSAGE'],
    ['tool', 'TOOL_RESULT'],
  ];
  for (let i = 0; i < texts.length && !enough(messages); i++) {
    const [role, itemType] = kinds[i % kinds.length]!;
    messages.push({ id: `m${i}`, role, itemType, content: [{ type: 'text', text: texts[i]! }] });
  }
  return messages;
}
