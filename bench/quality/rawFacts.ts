// The facts a compacted conversation should still hold, read straight from the RAW transcript
// files with the benchmark's own JSON walks and regexes — deliberately not through the engine's
// importers or src/engine/analyze, so the benchmark can disagree with the engine.
//
//   userRequests  what the person typed (not tool output, not harness boilerplate)
//   files         paths the assistant read, created or edited (for shell commands: the paths on
//                 the command line, not those inside a heredoc's body or a quoted script)
//   errors        error signatures ("Type: message") found in tool output
//   answers       LongMemEval's answers to its probe questions
//   rules         the person's standing rules (agentFacts.ruleSentencesOf)
// The agent sessions the bench makes (agentStories.ts) are read in agentFacts.ts.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { claudeTypedText, clineFacts, codexFacts, ruleSentencesOf } from './agentFacts';

export type BenchFormat = 'aider' | 'claude-code' | 'longmemeval' | 'mini-swe-agent' | 'openhands' | 'codex' | 'cline';

export interface ExpectedFacts {
  /** One conversation: a transcript file, or one LongMemEval instance of it. */
  name: string;
  format: BenchFormat;
  /** The file, relative to the transcripts folder. */
  file: string;
  /** LongMemEval instance index. */
  instance?: number;
  userRequests: string[];
  files: string[];
  errors: string[];
  answers: string[];
  /** For each answer, its key terms that occur in the conversation (see answerTerms). */
  answerTerms: string[][];
  /** The person's standing rules (agentFacts.ruleSentencesOf): quoted whole or not at all. */
  rules: string[];
}

/** The message part of an error signature is cut here: long enough to tell errors apart, short
 *  enough that a summary that shortens the message still carries it. */
export const ERROR_MESSAGE_CHARS = 40;

/** The format, from the folder the transcript sits in (MANIFEST.md names one per folder). */
export function benchFormatOf(rel: string): BenchFormat | undefined {
  const dir = rel.split('/')[0];
  const known: BenchFormat[] = ['aider', 'claude-code', 'longmemeval', 'mini-swe-agent', 'openhands'];
  return known.find((k) => k === dir);
}

/** The expected facts of one transcript file (several for LongMemEval: one per instance). */
export function expectedFacts(fullPath: string, rel: string): ExpectedFacts[] {
  const format = benchFormatOf(rel);
  if (!format)
    throw new Error(
      `${rel}: not a benchmark format (expected a file under ${['aider', 'claude-code', 'longmemeval', 'mini-swe-agent', 'openhands'].join('/, ')}/)`,
    );
  return expectedFactsOfText(readFileSync(fullPath, 'utf8'), rel, format);
}

/** The same, from the text of a file in a known format (the agent sessions are made in memory). */
export function expectedFactsOfText(raw: string, rel: string, format: BenchFormat): ExpectedFacts[] {
  const base = { name: basename(rel.replace(/\/api_conversation_history\.json$/, '.cline.json')), format, file: rel };
  const rulesOf = (f: Omit<Facts, 'rules'>): Facts => ({ ...f, rules: [...new Set(f.userRequests.flatMap(ruleSentencesOf))] });
  switch (format) {
    case 'aider':
      return [{ ...base, ...rulesOf(aiderFacts(raw)) }];
    case 'claude-code':
      return [{ ...base, ...rulesOf(claudeCodeFacts(raw, rel)) }];
    case 'mini-swe-agent':
      return [{ ...base, ...rulesOf(miniSweAgentFacts(parseJson(raw, rel))) }];
    case 'openhands':
      return [{ ...base, ...rulesOf(openHandsFacts(parseJson(raw, rel))) }];
    case 'longmemeval':
      return longMemEvalFacts(parseJson(raw, rel)).map((f, i) => ({ ...base, name: `${base.name}#${i}`, instance: i, ...f, rules: [] }));
    case 'codex':
      return [{ ...base, ...codexFacts(raw) }];
    case 'cline':
      return [{ ...base, ...clineFacts(raw) }];
  }
}

type Facts = Pick<ExpectedFacts, 'userRequests' | 'files' | 'errors' | 'answers' | 'answerTerms' | 'rules'>;
type RawFacts = Omit<Facts, 'rules'>;

function parseJson(raw: string, rel: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new Error(`${rel}: expected one JSON document (${(e as Error).message})`, { cause: e });
  }
}

function uniq(xs: Iterable<string>): string[] {
  return [...new Set([...xs].map((x) => x.trim()).filter((x) => x !== ''))];
}

// ── Error signatures ──────────────────────────────────────────────────────────────────────

/** `Type: message` lines: Python/JS exceptions (dotted names ending Error/Exception/Failure,
 *  at the start of a line), Node's bare `Error: …` / `Error [CODE]: …`, TypeScript
 *  `error TS1234: …`, npm's `npm error …` / `npm ERR! …`. */
const EXCEPTION_LINE = /^[\s>E]*((?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Failure):[ \t]+)(\S.*)$/gm;
const NODE_ERROR_LINE = /^\s*(Error(?: \[[A-Z0-9_]+\])?:[ \t]+)(\S.*)$/gm;
const TS_ERROR_LINE = /\b(error TS\d{4,5}: )(\S.*)$/gm;
/** npm repeats its prefix on every line of one failure: only the first line is the signature. */
const NPM_ERROR_LINE = /^(npm (?:error|ERR!) )(\S.*)$/m;

/** The error signatures of one tool output, as written there: the type (with its separator)
 *  and the first ERROR_MESSAGE_CHARS characters of the message. */
export function errorSignatures(output: string): string[] {
  const out: string[] = [];
  const add = (m: RegExpMatchArray) => {
    const message = m[2]!.replace(/\s+/g, ' ').trim().slice(0, ERROR_MESSAGE_CHARS).trim();
    if (message) out.push(`${m[1]!.replace(/\s+/g, ' ')}${message}`);
  };
  for (const re of [EXCEPTION_LINE, NODE_ERROR_LINE, TS_ERROR_LINE]) for (const m of output.matchAll(re)) add(m);
  const npm = NPM_ERROR_LINE.exec(output);
  if (npm) add(npm);
  return out;
}

// ── aider ─────────────────────────────────────────────────────────────────────────────────

/** aider's prompt answers echoed as `#### ` lines are not requests (`y`, `skip`, confirmations). */
const AIDER_PROMPT_ECHO = /\(Y\)es\/\(N\)o|^\s*(?:y|n|yes|no|s|skip|a|all|d)\s*$/i;

function aiderFacts(raw: string): RawFacts {
  const lines = raw.split('\n');
  const userRequests: string[] = [];
  const files: string[] = [];
  const outputs: string[] = [];
  let user: string[] = [];
  let output: string[] = [];
  const flushUser = () => {
    const text = user.join('\n').trim();
    if (text && !AIDER_PROMPT_ECHO.test(text)) userRequests.push(text);
    user = [];
  };
  const flushOutput = () => {
    if (output.length) outputs.push(output.join('\n'));
    output = [];
  };
  lines.forEach((line, i) => {
    if (line.startsWith('#### ')) {
      flushOutput();
      user.push(line.slice(5));
      return;
    }
    flushUser();
    if (line.startsWith('> ') || line === '>') {
      const text = line.slice(2).trimEnd();
      output.push(text);
      const applied = /^Applied edit to (.+)$/.exec(text);
      if (applied) files.push(applied[1]!);
      // The path is on the line before the question; only a confirmed question counts.
      if (/^(?:Create new file|Add file to the chat)\? .*: y(?:es)?$/i.test(text)) {
        const prev = (lines[i - 1] ?? '').replace(/^> /, '').trim();
        if (prev && !/\s/.test(prev)) files.push(prev);
      }
    } else {
      flushOutput();
    }
  });
  flushUser();
  flushOutput();
  return { userRequests, files: uniq(files), errors: uniq(outputs.flatMap(errorSignatures)), answers: [], answerTerms: [] };
}

// ── Claude Code JSONL ─────────────────────────────────────────────────────────────────────

/** Tools whose input names a file the assistant read or wrote. */
const CLAUDE_FILE_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'NotebookRead']);

/** Harness text in user lines that nobody typed. */
const CLAUDE_NOT_TYPED = /^(?:<local-command-stdout>|Caveat: The messages below were generated|\[Request interrupted by user)/;

interface JsonObj {
  [k: string]: unknown;
}
const isObj = (v: unknown): v is JsonObj => typeof v === 'object' && v !== null && !Array.isArray(v);

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (isObj(b) && typeof b['text'] === 'string' ? b['text'] : '')).join('\n');
  return '';
}

/** A slash command line keeps only its arguments (what the person typed after the command). */
function typedText(text: string): string {
  if (!text.includes('<command-name>') && !text.includes('<command-message>')) return text;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text);
  return args ? args[1]!.trim() : '';
}

/** The program that printed a shell error ("rm: ", "(eval):cd:1: "): not part of the signature. */
const PROGRAM_PREFIX = /^(?:\(eval\):(?:\w+:)?\d+:|[\w.-]+:)\s+(?=\S)/;

/** A flagged tool result's signature: the first line naming an error (Error…:, npm error,
 *  error:), else its first line that is not one of Node's warnings ("(node:123)
 *  ExperimentalWarning…", "(Use `node --trace-warnings…"); never the person declining a tool
 *  call or a bare word; without colour codes and without the name of the program that printed it. */
function flaggedErrorLine(output: string): string | undefined {
  const text = output.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = text.split('\n').map((l) => l.trim());
  const named = lines.find((l) => /^(?:\w*Error\b.*?:|npm (?:error|ERR!) |error:)/i.test(l));
  const line = named ?? lines.find((l) => l !== '' && !l.startsWith('(node:') && !l.startsWith('(Use `node'));
  if (!line || line.length < 12 || /^The user doesn't want to proceed/.test(line)) return undefined;
  return line
    .replace(/<\/?tool_use_error>/g, '')
    .replace(/\s*\(node:\d+\).*$/, '')
    .replace(PROGRAM_PREFIX, '')
    .replace(/\s+/g, ' ')
    .slice(0, ERROR_MESSAGE_CHARS)
    .trim();
}

function claudeCodeFacts(raw: string, rel: string): RawFacts {
  const userRequests: string[] = [];
  const files: string[] = [];
  const errors: string[] = [];
  raw.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch (err) {
      throw new Error(`${rel}:${i + 1}: expected one JSON object per line (${(err as Error).message})`, { cause: err });
    }
    if (!isObj(e) || e['isSidechain'] === true || !isObj(e['message'])) return;
    const content = e['message']['content'];
    if (e['type'] === 'user') {
      const blocks = Array.isArray(content) ? content.filter(isObj) : [];
      for (const b of blocks) {
        if (b['type'] !== 'tool_result') continue;
        const out = blockText(b['content']);
        const found = errorSignatures(out);
        // A result flagged is_error with no typed error line: its first line is the signature.
        if (found.length === 0 && b['is_error'] === true) {
          const head = flaggedErrorLine(out);
          if (head) found.push(head);
        }
        errors.push(...found);
      }
      if (e['isMeta'] === true) return;
      const text =
        typeof content === 'string'
          ? content
          : blocks
              .filter((b) => b['type'] === 'text')
              .map((b) => String(b['text'] ?? ''))
              .join('\n');
      // Without the reminders and IDE notes the harness puts beside what the person typed.
      const typed = claudeTypedText(typedText(text));
      if (typed && !CLAUDE_NOT_TYPED.test(typed)) userRequests.push(typed);
    } else if (e['type'] === 'assistant' && Array.isArray(content)) {
      for (const b of content) {
        if (!isObj(b) || b['type'] !== 'tool_use' || !CLAUDE_FILE_TOOLS.has(String(b['name'])) || !isObj(b['input'])) continue;
        const p = b['input']['file_path'] ?? b['input']['notebook_path'] ?? b['input']['path'];
        if (typeof p === 'string') files.push(p);
      }
    }
  });
  return { userRequests, files: uniq(files), errors: uniq(errors), answers: [], answerTerms: [] };
}

// ── mini-swe-agent ────────────────────────────────────────────────────────────────────────

/** A path-like token in a shell command: has a directory part, or ends in a source/text extension. */
const SHELL_PATH =
  /(?<![\w./-])((?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.[A-Za-z]\w{0,5}|[\w-]+\.(?:py|pyi|js|ts|tsx|json|toml|cfg|ini|txt|md|rst|sh|yaml|yml|c|h|cpp|rs|go|java))(?![\w/-])/g;

/** A heredoc's body (`cat <<'EOF' > x.py` … `EOF`): the contents of a file, not commands. */
const HEREDOC_BODY = /<<-?\s*['"]?(\w+)['"]?([^\n]*)\n[\s\S]*?\n\s*\1[ \t]*(?=\n|$)/g;
/** A quoted argument with a space in it: code (`python -c "…"`, a sed script), a pattern or prose. */
const QUOTED_TEXT = /'[^'\n]*\s[^'\n]*'|"(?:[^"\\\n]|\\.)*\s(?:[^"\\\n]|\\.)*"/g;

/** A shell block as the files it acts on are named in it: heredoc bodies and quoted text out. */
function commandWords(block: string): string {
  return block.replace(HEREDOC_BODY, '<<$1$2').replace(QUOTED_TEXT, ' ');
}

/** The bodies of the fenced shell blocks (```bash or ```sh: mini-swe-agent's actions; a bare
 *  fence quotes output), fences paired in order: the prose between one block's closing fence and
 *  the next opening one is not a command. */
function shellBlocks(text: string): string[] {
  const out: string[] = [];
  let body: string[] | undefined;
  let shell = false;
  for (const line of text.split('\n')) {
    const fence = /^\s*```\s*(\w*)\s*$/.exec(line);
    if (!fence) {
      body?.push(line);
      continue;
    }
    if (body === undefined) {
      body = [];
      shell = fence[1] === 'bash' || fence[1] === 'sh';
    } else {
      if (shell) out.push(body.join('\n'));
      body = undefined;
    }
  }
  return out;
}

function miniSweAgentFacts(doc: unknown): RawFacts {
  const messages = isObj(doc) && Array.isArray(doc['messages']) ? doc['messages'].filter(isObj) : [];
  const userRequests: string[] = [];
  const files: string[] = [];
  const errors: string[] = [];
  let seenTask = false;
  for (const m of messages) {
    const text = blockText(m['content']);
    if (m['role'] === 'user') {
      // The first user message is the task; later ones are command output.
      if (!seenTask) {
        userRequests.push(text);
        seenTask = true;
      } else {
        errors.push(...errorSignatures(text));
      }
    } else if (m['role'] === 'assistant') {
      for (const block of shellBlocks(text)) {
        for (const p of commandWords(block).matchAll(SHELL_PATH)) files.push(p[1]!);
      }
    }
  }
  return { userRequests, files: uniq(files), errors: uniq(errors), answers: [], answerTerms: [] };
}

// ── OpenHands ─────────────────────────────────────────────────────────────────────────────

function openHandsFacts(doc: unknown): RawFacts {
  const events = Array.isArray(doc) ? doc.filter(isObj) : [];
  const userRequests: string[] = [];
  const files: string[] = [];
  const errors: string[] = [];
  for (const e of events) {
    const args = isObj(e['args']) ? e['args'] : {};
    if (e['source'] === 'user' && e['action'] === 'message' && typeof args['content'] === 'string') userRequests.push(args['content']);
    if (e['source'] === 'agent' && typeof e['action'] === 'string' && typeof args['path'] === 'string') files.push(args['path']);
    if (typeof e['observation'] === 'string' && typeof e['content'] === 'string') errors.push(...errorSignatures(e['content']));
  }
  return { userRequests, files: uniq(files), errors: uniq(errors), answers: [], answerTerms: [] };
}

// ── LongMemEval ───────────────────────────────────────────────────────────────────────────

/** The reshaped file stores its question and answer lists either as JSON arrays or as the
 *  Python repr of a list (`"['a', 'b']"`): read both. */
export function pythonList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== 'string') return [];
  const s = v.trim();
  if (!s.startsWith('[')) return [s];
  const out: string[] = [];
  const re = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
  for (const m of s.matchAll(re)) out.push((m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'));
  return out;
}

function longMemEvalFacts(doc: unknown): RawFacts[] {
  const list = Array.isArray(doc) ? doc : [doc];
  return list.filter(isObj).map((inst) => {
    const sessions = Array.isArray(inst['haystack_sessions']) ? inst['haystack_sessions'] : [];
    const userRequests: string[] = [];
    for (const s of sessions) {
      if (!Array.isArray(s)) continue;
      for (const m of s) if (isObj(m) && m['role'] === 'user' && typeof m['content'] === 'string') userRequests.push(m['content']);
    }
    const answers = pythonList(inst['answers'] ?? inst['answer']);
    const said = new Set(
      wordsOf(
        sessions
          .flatMap((s) => (Array.isArray(s) ? s : []))
          .map((m) => (isObj(m) ? String(m['content'] ?? '') : ''))
          .join('\n'),
      ),
    );
    const answerTerms = answers.map((a) => answerTermsOf(a).filter((t) => said.has(t)));
    return { userRequests, files: [], errors: [], answers, answerTerms };
  });
}

/** Words too common to tell an answer apart. */
const STOPWORDS = new Set(
  'the and for are but not you your with that this from was were has have had its into than then them they their there which what when where who whom why how can could would should will about also been being more most some such only other over very just because while each both any all our out use used using like one two may might must per via'.split(
    ' ',
  ),
);

/** Lower-case words and numbers (letters of any script, digits, with inner . , ' -). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,'’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** An answer's key terms: its words of three letters or more that are not stop words, and every
 *  number. LongMemEval answers are mostly paraphrases, so the answer's text itself is rarely in
 *  the conversation; its names, numbers and rare words are. */
export function answerTermsOf(answer: string): string[] {
  return [...new Set(wordsOf(answer).filter((w) => /\d/.test(w) || (w.length >= 3 && !STOPWORDS.has(w))))];
}
