// A check, independent of the importers' own repair code, of the API rule every imported or
// exported conversation must satisfy (DESIGN.md invariant 2).

import type { Message } from '../../src/engine/conversation/model';

/** The API rule every import must satisfy: each tool call is answered exactly once, by results
 *  that come right after its assistant message, and no result answers nothing. */
export function apiShapeProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.toolResult && !(m.role === 'tool' && m.itemType === 'TOOL_RESULT')) problems.push(`${i}: toolResult on a ${m.role}/${m.itemType}`);
    if (m.itemType === 'TOOL_RESULT' && !m.toolResult) problems.push(`${i}: TOOL_RESULT without toolResult`);
    if (!m.toolCalls || m.toolCalls.length === 0) {
      if (m.toolResult) {
        // A result must belong to the block opened by the nearest assistant message with calls.
        let j = i - 1;
        while (j >= 0 && messages[j]!.toolResult) j--;
        const owner = messages[j];
        if (!owner?.toolCalls?.some((c) => c.id === m.toolResult!.toolCallId))
          problems.push(`${i}: result ${m.toolResult.toolCallId} does not follow its call`);
      }
      continue;
    }
    const want = new Set(m.toolCalls.map((c) => c.id));
    if (want.size !== m.toolCalls.length) problems.push(`${i}: repeated call id`);
    let j = i + 1;
    for (; j < messages.length && messages[j]!.toolResult; j++) {
      const id = messages[j]!.toolResult!.toolCallId;
      if (!want.delete(id)) problems.push(`${j}: result ${id} answers no open call of message ${i}`);
    }
    if (want.size > 0) problems.push(`${i}: calls without results: ${[...want].join(', ')}`);
  }
  return problems;
}
