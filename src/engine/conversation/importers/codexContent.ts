// The content of Codex's items as the conversation model reads it: a message's text and parts, a
// tool output's parts and whether it failed (a shell call's JSON {output, metadata} read as its
// text and exit code).

import type { ContentPart } from '../model';
import { imagePart, textParts } from './contentParts';
import { isObject, num, obj, str, type JsonObject } from './jsonShape';

/** A message item's text: its text parts joined. */
export function messageText(item: JsonObject): string {
  const content = item['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (isObject(c) && typeof c['text'] === 'string' ? c['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** A message item's content as parts (text, and a placeholder for an image). */
export function contentParts(item: JsonObject): ContentPart[] {
  const content = item['content'];
  if (typeof content === 'string') return textParts(content);
  const parts: ContentPart[] = [];
  for (const c of Array.isArray(content) ? content : []) {
    if (!isObject(c)) continue;
    const type = str(c, 'type');
    if (typeof c['text'] === 'string') parts.push(...textParts(c['text']));
    else if (type === 'input_image') parts.push(imagePart(undefined));
  }
  return parts;
}

/** A shell call's output as the rollout records it: a JSON string {output, metadata: {exit_code}}. */
const SHELL_OUTPUT = /^\s*\{\s*"output"\s*:/;

/** A tool output as parts: a string (the JSON of a shell call's {output, metadata} read as its
 *  text, a non-zero exit code an error), {content, success}, or a list of content items. */
export function outputParts(output: unknown): { parts: ContentPart[]; isError: boolean } {
  if (typeof output === 'string' && SHELL_OUTPUT.test(output)) {
    try {
      const v = JSON.parse(output) as unknown;
      if (isObject(v) && typeof v['output'] === 'string') {
        const meta = obj(v, 'metadata');
        const exit = meta ? num(meta, 'exit_code') : undefined;
        return {
          parts: textParts(exit !== undefined && exit !== 0 ? `${v['output']}\n(exit code ${exit})` : v['output']),
          isError: exit !== undefined && exit !== 0,
        };
      }
    } catch {
      // Not the shell's JSON after all: the text as it is.
    }
  }
  if (typeof output === 'string') return { parts: textParts(output), isError: false };
  if (Array.isArray(output)) return { parts: contentParts({ content: output }), isError: false };
  if (isObject(output)) {
    const inner = output['content'] ?? output['output'];
    const { parts } = outputParts(inner);
    return { parts, isError: output['success'] === false };
  }
  return { parts: [], isError: false };
}
