// Agent session files as the real CLIs write them (shapes taken from sessions Claude Code 2.1.328
// and Codex 0.169.0 wrote on this machine), built from a list of turns: a request, one tool call
// with its output, and an answer. Long outputs and answers make compaction have something to do.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Turn {
  user: string;
  tool: { name: string; input: Record<string, unknown>; output: string };
  answer: string;
}

/** A turn whose tool output and answer are long and say its name everywhere. */
export function bigTurn(name: string, lines = 80): Turn {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) out.push(`${name.toUpperCase()}-LINE-${i}: row ${i} of the ${name} table holds ${(i * 37) % 101}`);
  const answer = Array.from({ length: 20 }, (_, i) => `${name.toUpperCase()}-ANSWER-${i + 1} restates row ${i + 1}.`).join(' ');
  return {
    user: `TURN-${name}: read notes-${name}.txt and restate it`,
    tool: { name: 'Bash', input: { command: `cat notes-${name}.txt` }, output: out.join('\n') },
    answer,
  };
}

/** A fixed v4-shaped UUID, numbered: original sessions get these, so fresh ones are easy to tell. */
export function fixedUuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export interface ClaudeSessionSpec {
  sessionId: string;
  cwd: string;
  turns: Turn[];
  version?: string;
  model?: string;
  /** First uuid number (default 1). */
  start?: number;
  /** parentUuid of the first line (default null). */
  parent?: string | null;
  sidechain?: boolean;
}

/** The lines of a Claude Code session: per turn a user line, an assistant tool_use line, the
 *  tool_result user line and the assistant answer, chained by parentUuid. */
export function claudeLines(spec: ClaudeSessionSpec): Record<string, unknown>[] {
  let n = spec.start ?? 1;
  let parent: string | null = spec.parent ?? null;
  const base = { isSidechain: spec.sidechain ?? false, userType: 'external', cwd: spec.cwd, sessionId: spec.sessionId, version: spec.version ?? '2.1.328' };
  const lines: Record<string, unknown>[] = [];
  const push = (type: 'user' | 'assistant', message: Record<string, unknown>) => {
    const uuid = fixedUuid(n++);
    lines.push({ parentUuid: parent, ...base, type, message, uuid, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString() });
    parent = uuid;
  };
  spec.turns.forEach((t, i) => {
    push('user', { role: 'user', content: t.user });
    const toolId = `toolu_${spec.sessionId.slice(0, 8)}_${i}`;
    const model = spec.model ?? 'claude-sonnet-4-5';
    push('assistant', {
      id: `msg_${i}_a`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'tool_use', id: toolId, name: t.tool.name, input: t.tool.input }],
    });
    push('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: t.tool.output, is_error: false }] });
    push('assistant', { id: `msg_${i}_b`, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: t.answer }] });
  });
  return lines;
}

export interface CodexRolloutSpec {
  id: string;
  cwd: string;
  turns: Turn[];
  model?: string;
  /** Codex 0.171's session_meta fields. */
  modelProvider?: string;
  baseInstructions?: string;
}

/** The lines of a Codex rollout: session_meta, then per turn the user message (response item and
 *  user_message event), a function_call, its output, the answer and a token_count event. */
export function codexLines(spec: CodexRolloutSpec): Record<string, unknown>[] {
  let t = 0;
  const ts = () => new Date(Date.UTC(2026, 0, 1, 0, 0, t++)).toISOString();
  const lines: Record<string, unknown>[] = [
    {
      timestamp: ts(),
      type: 'session_meta',
      payload: {
        id: spec.id,
        timestamp: ts(),
        cwd: spec.cwd,
        originator: 'codex_exec',
        cli_version: '0.169.0',
        source: 'exec',
        ...(spec.modelProvider ? { model_provider: spec.modelProvider } : {}),
        ...(spec.baseInstructions ? { base_instructions: { text: spec.baseInstructions } } : {}),
      },
    },
    {
      timestamp: ts(),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>sandbox: read-only</permissions instructions>' }],
      },
    },
    {
      timestamp: ts(),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${spec.cwd}</cwd>\n</environment_context>` }],
      },
    },
    { timestamp: ts(), type: 'turn_context', payload: { cwd: spec.cwd, model: spec.model ?? 'gpt-5.1-codex' } },
  ];
  let input = 1000;
  spec.turns.forEach((turn, i) => {
    const call = `call_${i}`;
    lines.push({ timestamp: ts(), type: 'event_msg', payload: { type: 'user_message', message: turn.user, images: [] } });
    lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.user }] } });
    lines.push({
      timestamp: ts(),
      type: 'response_item',
      payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: String(turn.tool.input['command'] ?? 'true') }), call_id: call },
    });
    lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call_output', call_id: call, output: turn.tool.output } });
    lines.push({
      timestamp: ts(),
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.answer }] },
    });
    input += 2000;
    lines.push({
      timestamp: ts(),
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: input * (i + 1), output_tokens: 10 * (i + 1) },
          last_token_usage: { input_tokens: input, cached_input_tokens: 500, output_tokens: 10 },
          model_context_window: 258400,
        },
      },
    });
  });
  return lines;
}

export function jsonl(lines: readonly unknown[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export function writeFileIn(path: string, text: string | Uint8Array): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
