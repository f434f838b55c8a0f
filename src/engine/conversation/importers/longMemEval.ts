// LongMemEval (the reshaped longmemeval_s.json): a list of instances, each with
// haystack_sessions[][]{role, content, has_answer?}, haystack_dates, haystack_session_ids and the
// probes: questions[] / answers[] / answer_session_ids[][] (or the original single
// question/answer/answer_session_ids).
//
// One instance (opts.instance, default 0) imports as one conversation: every session's messages in
// order, each stamped with its session's date (that is where a session boundary shows), ids
// `<session id>:<k>`, source.extra {session, hasAnswer?}. The probes — what a summary must let a
// reader answer — come from longMemEvalProbes() for the quality benchmark.

import type { ConversationMeta, ImportResult, ImportWarning } from '../model';
import { plainDraft, sourceMeta, textParts } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stripBom } from './jsonText';
import { arr, isObject, str, type JsonObject } from './jsonShape';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

export interface LongMemEvalProbe {
  question: string;
  answer: string;
  /** Sessions that hold the answer. */
  answerSessionIds: string[];
}

export interface LongMemEvalProbes {
  instance: number;
  questionId?: string;
  questionType?: string;
  questionDate?: string;
  probes: LongMemEvalProbe[];
}

export function looksLikeLongMemEval(v: unknown): boolean {
  const first = Array.isArray(v) ? v[0] : v;
  return isObject(first) && Array.isArray(first['haystack_sessions']);
}

export function importLongMemEval(text: string, opts: ImportOptions = {}): ImportResult {
  return fromLongMemEvalValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

function pickInstance(value: unknown, index: number, file: string | undefined): JsonObject {
  const list = Array.isArray(value) ? value : [value];
  if (!Number.isInteger(index) || index < 0 || index >= list.length) {
    throw new TranscriptError({ file, position: `instance ${index}`, expected: `an instance index from 0 to ${list.length - 1}` });
  }
  const inst = list[index];
  if (!isObject(inst) || !Array.isArray(inst['haystack_sessions'])) {
    throw new TranscriptError({ file, position: `[${index}]`, expected: "a LongMemEval instance with 'haystack_sessions'", found: describeJsonValue(inst) });
  }
  return inst;
}

/** "2023/07/12 (Wed) 10:14" → "2023-07-12T10:14:00"; anything else as given. */
export function longMemEvalDate(d: string): string {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})(?:\s*\(\w+\))?\s*(\d{2}):(\d{2})/.exec(d);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00` : d;
}

export function fromLongMemEvalValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  const index = opts.instance ?? 0;
  const inst = pickInstance(value, index, file);
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const qid = str(inst, 'question_id');
  if (qid) meta.title = qid;
  const sessions = arr(inst, 'haystack_sessions')!;
  const dates = arr(inst, 'haystack_dates') ?? [];
  const ids = arr(inst, 'haystack_session_ids') ?? [];
  const drafts: MessageDraft[] = [];
  sessions.forEach((session, s) => {
    if (!Array.isArray(session)) {
      warnings.push({ position: `haystack_sessions[${s}]`, message: `expected a list of messages, found ${describeJsonValue(session)}; skipped` });
      return;
    }
    const sessionId = typeof ids[s] === 'string' ? (ids[s] as string) : `session_${s}`;
    const date = typeof dates[s] === 'string' ? longMemEvalDate(dates[s] as string) : undefined;
    session.forEach((m, k) => {
      const position = `haystack_sessions[${s}][${k}]`;
      if (!isObject(m)) {
        warnings.push({ position, message: `expected {role, content}, found ${describeJsonValue(m)}; skipped` });
        return;
      }
      const role = str(m, 'role');
      const text = str(m, 'content') ?? '';
      const extra: Record<string, string | boolean> = { session: sessionId };
      if (m['has_answer'] === true) extra['hasAnswer'] = true;
      const src = sourceMeta('longmemeval', { index: k, sourceId: `${sessionId}:${k}`, extra });
      if (role === 'user') drafts.push(plainDraft('user', 'USER_MESSAGE', textParts(text), src, date));
      else if (role === 'assistant') drafts.push(plainDraft('assistant', 'ASSISTANT_MESSAGE', textParts(text), src, date));
      else {
        warnings.push({ position: `${position}.role`, message: `unknown role ${role ? `'${role}'` : '(missing)'}; kept as a note` });
        drafts.push(plainDraft('user', 'SKILL_METADATA', textParts(text), { ...src, ...(role ? { role } : {}) }, date));
      }
    });
  });
  return finishImport(drafts, { format: 'longmemeval', meta, warnings });
}

/** The instance's questions and answers: what a summary of its sessions should still answer. */
export function longMemEvalProbes(text: string, instance = 0, file?: string): LongMemEvalProbes {
  const inst = pickInstance(parseJsonDocument(stripBom(text), file), instance, file);
  const questions = arr(inst, 'questions') ?? (typeof inst['question'] === 'string' ? [inst['question']] : []);
  const answers = arr(inst, 'answers') ?? (inst['answer'] !== undefined ? [inst['answer']] : []);
  const rawSessions = arr(inst, 'answer_session_ids') ?? [];
  // The original format has one flat list of session ids for its one question.
  const sessionsFor = (i: number): string[] => {
    const s = Array.isArray(rawSessions[0]) || rawSessions.length === 0 ? rawSessions[i] : rawSessions;
    return Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [];
  };
  const probes: LongMemEvalProbe[] = questions.map((q, i) => ({
    question: String(q),
    answer: answers[i] === undefined ? '' : String(answers[i]),
    answerSessionIds: sessionsFor(i),
  }));
  const out: LongMemEvalProbes = { instance, probes };
  if (str(inst, 'question_id')) out.questionId = str(inst, 'question_id')!;
  if (str(inst, 'question_type')) out.questionType = str(inst, 'question_type')!;
  if (str(inst, 'question_date')) out.questionDate = str(inst, 'question_date')!;
  return out;
}

/** How many instances a LongMemEval file holds. */
export function longMemEvalInstanceCount(text: string, file?: string): number {
  const v = parseJsonDocument(stripBom(text), file);
  return Array.isArray(v) ? v.length : 1;
}
