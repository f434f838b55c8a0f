// `ctxc compact … --summarizer openai` options → a Summarizer. The compact command passes its
// arguments through here and keeps the rest; the API key comes from the environment only
// (OPENAI_API_KEY or the variable --api-key-env names), so it is never on the command line,
// never printed and never written anywhere.

import type { Summarizer } from '../engine/summarizer';
import type { TextCounter } from '../engine/tokens/tokenCounter';
import type { RetryEvent, Sleep } from '../engine/llm/retryPolicy';
import { createOpenAiSummarizer } from './openaiSummarizer';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The same default as the extension's contextCompactor.openai.model setting. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';
/** Local servers (Ollama, LM Studio, vLLM without --api-key) want some key and ignore it. */
export const LOCAL_PLACEHOLDER_KEY = 'not-needed';
export const CLI_AUTH_HINT = `Set ${DEFAULT_API_KEY_ENV} (or the variable --api-key-env names) to a valid key.`;

export const SUMMARIZER_CLI_USAGE = `Summarizer options:
  --summarizer extractive|openai   who writes the summary (default extractive: offline, no key)
  --base-url URL                   OpenAI-compatible endpoint (default ${DEFAULT_BASE_URL}; env OPENAI_BASE_URL)
                                   Ollama http://localhost:11434/v1 · LM Studio http://localhost:1234/v1
  --model M                        summarizer model (--summarizer-model M when --model means something else)
  --api-key-env NAME               environment variable holding the key (default ${DEFAULT_API_KEY_ENV});
                                   not needed for a server on localhost
  --summarizer-window N            the summarizer model's context window in tokens (larger spans go in chunks)
  --timeout SECONDS                the whole summary: every request, retry and pause (default 300);
                                   a reply that stops mid-way for 60 s is cut off sooner
  --no-stream                      ask for the whole reply at once
  --header 'Name: value'           extra request header (repeatable)
  --query name=value               extra query parameter (repeatable)
  --azure-api-version V            Azure OpenAI: --base-url is the resource endpoint, --model the deployment
`;

export interface SummarizerCliDeps {
  counter?: TextCounter;
  sleep?: Sleep;
  onRetry?: (e: RetryEvent) => void;
  clock?: () => number;
}

export type SummarizerCliResult =
  | {
      ok: true;
      /** undefined: the engine's extractive summarizer. */
      summarizer?: Summarizer;
      /** Arguments this did not consume (--model is read but left for the caller). */
      rest: string[];
      /** e.g. "openai (gpt-4o-mini at OpenAI-compatible endpoint localhost:11434/v1)"; never the key. */
      description: string;
    }
  | { ok: false; error: string };

const VALUE_FLAGS = new Set([
  '--summarizer',
  '--base-url',
  '--summarizer-model',
  '--api-key-env',
  '--summarizer-window',
  '--timeout',
  '--header',
  '--query',
  '--azure-api-version',
]);

function isLocalHost(baseURL: string): boolean {
  try {
    const h = new URL(baseURL).hostname;
    return h === 'localhost' || h === '127.0.0.1' || h === '[::1]' || h === '::1' || h.endsWith('.localhost');
  } catch {
    return false;
  }
}

function positiveInt(flag: string, v: string): number | string {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : `${flag} expects a positive whole number, got '${v}'`;
}

/**
 * Read the summarizer options out of `args` (both `--flag value` and `--flag=value`).
 * Bad values come back as { ok: false, error } naming the option and what was expected.
 */
export function createSummarizerFromCliArgs(
  args: readonly string[],
  env: Record<string, string | undefined>,
  deps: SummarizerCliDeps = {},
): SummarizerCliResult {
  const values = new Map<string, string[]>();
  const rest: string[] = [];
  let noStream = false;
  let model: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      // Everything after it is positional: the caller's.
      rest.push(...args.slice(i));
      break;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (flag === '--no-stream') {
      noStream = true;
      continue;
    }
    if (flag === '--model') {
      // Shared with the caller (which may also use it): read, not consumed.
      const v = eq > 0 ? a.slice(eq + 1) : args[i + 1];
      if (v !== undefined && !v.startsWith('--')) model = v;
      rest.push(a);
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) {
      rest.push(a);
      continue;
    }
    const v = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (v === undefined || (eq < 0 && v.startsWith('--'))) return { ok: false, error: `${flag} expects a value` };
    (values.get(flag) ?? values.set(flag, []).get(flag)!).push(v);
  }
  const one = (f: string) => values.get(f)?.at(-1);

  const kind = one('--summarizer') ?? 'extractive';
  if (kind === 'extractive') {
    const stray = [...values.keys()].filter((f) => f !== '--summarizer');
    if (stray.length) return { ok: false, error: `${stray.join(', ')} only apply with --summarizer openai` };
    return { ok: true, rest, description: 'extractive' };
  }
  if (kind !== 'openai') return { ok: false, error: `--summarizer expects 'extractive' or 'openai', got '${kind}'` };

  const baseURL = one('--base-url') ?? env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL;
  try {
    const u = new URL(baseURL);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
  } catch {
    return { ok: false, error: `--base-url expects an http(s) URL such as http://localhost:11434/v1, got '${baseURL}'` };
  }
  const summarizerModel = one('--summarizer-model') ?? model ?? DEFAULT_OPENAI_MODEL;

  const keyEnv = one('--api-key-env') ?? DEFAULT_API_KEY_ENV;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) return { ok: false, error: `--api-key-env expects an environment variable name, got '${keyEnv}'` };
  let apiKey = env[keyEnv]?.trim();
  if (!apiKey) {
    if (!isLocalHost(baseURL))
      return {
        ok: false,
        error: `no API key for ${new URL(baseURL).host}: set ${keyEnv} in the environment${keyEnv === DEFAULT_API_KEY_ENV ? ' or name another variable with --api-key-env' : ''}`,
      };
    apiKey = LOCAL_PLACEHOLDER_KEY;
  }

  let contextWindow: number | undefined;
  const win = one('--summarizer-window');
  if (win !== undefined) {
    const n = positiveInt('--summarizer-window', win);
    if (typeof n === 'string') return { ok: false, error: n };
    contextWindow = n;
  }
  let timeoutMs: number | undefined;
  const t = one('--timeout');
  if (t !== undefined) {
    const secs = Number(t);
    if (!Number.isFinite(secs) || secs <= 0) return { ok: false, error: `--timeout expects seconds (a positive number), got '${t}'` };
    timeoutMs = Math.round(secs * 1000);
  }
  const headers: Record<string, string> = {};
  for (const h of values.get('--header') ?? []) {
    const m = /^([A-Za-z0-9-]+)\s*:\s*(.*)$/.exec(h);
    if (!m) return { ok: false, error: `--header expects 'Name: value', got '${h}'` };
    headers[m[1]!] = m[2]!;
  }
  const query: Record<string, string> = {};
  for (const q of values.get('--query') ?? []) {
    const at = q.indexOf('=');
    if (at <= 0) return { ok: false, error: `--query expects name=value, got '${q}'` };
    query[q.slice(0, at)] = q.slice(at + 1);
  }
  const azureApiVersion = one('--azure-api-version');

  const summarizer = createOpenAiSummarizer({
    baseURL,
    apiKey,
    model: summarizerModel,
    authHint: keyEnv === DEFAULT_API_KEY_ENV ? CLI_AUTH_HINT : `Set ${keyEnv} to a valid key.`,
    stream: !noStream,
    ...(Object.keys(headers).length ? { defaultHeaders: headers } : {}),
    ...(Object.keys(query).length ? { defaultQuery: query } : {}),
    ...(azureApiVersion ? { azureApiVersion } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(contextWindow ? { contextWindow } : {}),
    ...(deps.counter ? { counter: deps.counter } : {}),
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.onRetry ? { onRetry: deps.onRetry } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const host = new URL(baseURL).host;
  return { ok: true, summarizer, rest, description: `openai (${summarizerModel} at ${host})` };
}
