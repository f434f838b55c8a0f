// What a session we wrote back into an agent takes over from its original (recorded in our
// provenance field: Claude Code's compact_boundary line `contextCompactor.inherited`, Codex's
// session_meta `context_compactor.inherited`): the model it ran with, what its agent sends that the
// file does not hold (system prompt, tools) as measured on the original, and the window it
// reported. Until the agent answers in the new session and records its own usage, these are what
// the new session is metered with, so the meter shows what the confirmation promised.

export interface InheritedFigures {
  model?: string;
  overhead?: number;
  window?: number;
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : undefined;
}

/** The figures in `value` (as written, or as read back from a file: untrusted), only those that
 *  make sense; undefined when none does. */
export function readInherited(value: unknown): InheritedFigures | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const model = typeof o['model'] === 'string' && o['model'].trim() !== '' ? o['model'].trim().slice(0, 200) : undefined;
  const overhead = positive(o['overhead']);
  const window = positive(o['window']);
  const out: InheritedFigures = { ...(model ? { model } : {}), ...(overhead ? { overhead } : {}), ...(window ? { window } : {}) };
  return Object.keys(out).length > 0 ? out : undefined;
}
