// What an OpenAI-compatible endpoint must never get back out of us: the API key and every header
// value configured for it (a proxy's token, OpenRouter's identity), and the secret-looking query
// values. A hostile or broken endpoint can echo them — in an error, in the model name it reports,
// in the summary itself — and whatever it sends lands in messages, the result's stats and the
// `--out` file. So every text taken from a reply passes through redactSecrets first.

/** Values shorter than this are placeholders ("ollama", "x"); masking them would garble text. */
export const MIN_SECRET_CHARS = 8;
/** What a secret is replaced with. */
export const REDACTED = '***';
/** Query parameters whose value is a credential (Azure's `api-key`, a gateway's `token`). */
const SECRET_QUERY_NAME = /key|token|secret|sig|auth|pass/i;

export interface SecretSources {
  apiKey: string;
  defaultHeaders?: Record<string, string>;
  defaultQuery?: Record<string, string>;
}

/** The values to redact, longest first (a key inside a header value goes with the header value):
 *  the key; each header value and, for a scheme and a token ("Bearer abc…"), the token; the
 *  query values whose name says they are credentials. */
export function secretValues(s: SecretSources): string[] {
  const out = new Set<string>([s.apiKey]);
  for (const v of Object.values(s.defaultHeaders ?? {})) {
    out.add(v.trim());
    const token = /^\S+\s+(\S+)$/.exec(v.trim())?.[1];
    if (token) out.add(token);
  }
  for (const [k, v] of Object.entries(s.defaultQuery ?? {})) if (SECRET_QUERY_NAME.test(k)) out.add(v);
  return [...out].filter((v) => v.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced by REDACTED. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}
