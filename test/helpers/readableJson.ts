// JSON written for a person to review in a diff: one `key: value` per line, nested values indented,
// list items marked `-`, and a string that holds line breaks written as its lines, each behind `│ `
// (so a changed line of a summary is one changed line of the snapshot). The form is exact — keys and
// one-line strings are JSON-quoted, a multi-line string shows every line including a last empty one
// — so two different values never read the same.

export function readableJson(value: unknown, indent = ''): string {
  return lines(value, indent).join('\n') + '\n';
}

function scalar(value: unknown): string | undefined {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string' && !value.includes('\n')) return JSON.stringify(value);
  if (Array.isArray(value) && value.length === 0) return '[]';
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return '{}';
  return undefined;
}

function lines(value: unknown, indent: string): string[] {
  const one = scalar(value);
  if (one !== undefined) return [indent + one];
  if (typeof value === 'string') return [`${indent}|`, ...value.split('\n').map((l) => `${indent}│ ${l}`)];
  if (Array.isArray(value)) return value.flatMap((item) => entry(`${indent}-`, item, `${indent}  `));
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => entry(`${indent}${JSON.stringify(k)}:`, v, `${indent}  `));
}

/** A labelled value: on the label's line when it is one line, else below it, indented. */
function entry(label: string, value: unknown, inner: string): string[] {
  const one = scalar(value);
  return one !== undefined ? [`${label} ${one}`] : [label, ...lines(value, inner)];
}
