// Reasoning a model wrote inline in its reply text, inside a wrapper: <think>…</think> (DeepSeek
// R1, Qwen), <thinking>…</thinking>, <reasoning>…</reasoning>, and <thinking-content-HEX>…
// </thinking-content-HEX> (LM Studio's reasoning section as aider records it). It is the same
// thing as a thinking content part (Anthropic, OpenAI reasoning_content): the model's working,
// not its answer. A wrapper left open (a reply cut off mid-thought) runs to the end; a closing
// tag with no opening one (templates that put the opening tag in the prompt) closes everything
// before it.

/** Names of the inline reasoning wrappers. */
const REASONING_TAG = 'think|thinking|reasoning|thinking-content-[0-9a-f]+';

/** Inline reasoning blocks of the given tag names (regular-expression alternatives), closed or
 *  left open to the end. */
export function reasoningBlocks(extraTags: readonly string[] = []): RegExp {
  const names = [REASONING_TAG, ...extraTags].join('|');
  return new RegExp(`<(${names})>[\\s\\S]*?(?:<\\/\\1>|$)`, 'gi');
}

const BLOCKS = reasoningBlocks();
const LONE_CLOSE = new RegExp(`^[\\s\\S]*?<\\/(?:${REASONING_TAG})>`, 'i');
const OPENS = new RegExp(`<(?:${REASONING_TAG})>`, 'i');

export interface SplitReasoning {
  /** The answer as the reader sees it: the text without its reasoning, trimmed. */
  visible: string;
  /** The reasoning inside the wrappers (wrappers removed), blocks joined by a blank line. */
  reasoning: string;
}

/** `text` split into its visible answer and its inline reasoning. Text with no wrapper is all
 *  visible, unchanged. */
export function splitInlineReasoning(text: string): SplitReasoning {
  if (!text.includes('</') && !OPENS.test(text)) return { visible: text, reasoning: '' };
  const parts: string[] = [];
  let rest = text;
  const lone = LONE_CLOSE.exec(rest);
  if (lone && !OPENS.test(lone[0])) {
    parts.push(lone[0].replace(/<\/[^>]+>$/, '').trim());
    rest = rest.slice(lone[0].length);
  }
  BLOCKS.lastIndex = 0;
  const visible = rest.replace(BLOCKS, (block: string) => {
    parts.push(
      block
        .replace(/^<[^>]+>/, '')
        .replace(/<\/[^>]+>$/, '')
        .trim(),
    );
    return '';
  });
  if (parts.length === 0) return { visible: text, reasoning: '' };
  return { visible: visible.trim(), reasoning: parts.filter(Boolean).join('\n\n') };
}
