// Small typed readers over parsed JSON: a transcript is untrusted input, so every field is
// checked before use and nothing here recurses into the data.

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(o: JsonObject, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

export function num(o: JsonObject, key: string): number | undefined {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function arr(o: JsonObject, key: string): unknown[] | undefined {
  const v = o[key];
  return Array.isArray(v) ? v : undefined;
}

export function obj(o: JsonObject, key: string): JsonObject | undefined {
  const v = o[key];
  return isObject(v) ? v : undefined;
}
