// A story (agentStories.ts) written out as the file an agent keeps: a Codex IDE-extension rollout
// (JSONL), a Claude Code session (JSONL) and a Cline task (api_conversation_history.json), in the
// shapes the agents write (AGENTS.md beside the shared transcripts; test/fixtures/cline-task).

import type { Call, Story, Turn } from './agentStories';

export type AgentFormat = 'codex' | 'claude-code' | 'cline';

export interface AgentFile {
  /** Where the bench files it: "agents/<format>/<name>…". */
  rel: string;
  format: AgentFormat;
  text: string;
}

const SHELL_OF_READ = (s: Story, path: string) =>
  s.windows ? ['powershell.exe', '-Command', `Get-Content ${path}`] : ['bash', '-lc', `sed -n '1,200p' ${path}`];

function time(base: number, k: number): string {
  return new Date(Date.UTC(2026, 5, 2, 9, 0, 0) + base * 3_600_000 + k * 7000).toISOString();
}

function patch(c: Call): string {
  if (c.kind === 'write') return `*** Begin Patch\n*** Add File: ${c.path}\n${c.content.replace(/^/gm, '+')}\n*** End Patch`;
  if (c.kind === 'edit' || c.kind === 'declined') return `*** Begin Patch\n*** Update File: ${c.path}\n@@\n-${c.before}\n+${c.after}\n*** End Patch`;
  return '';
}

// ── Codex IDE extension ─────────────────────────────────────────────────────────────────────

function ideBlock(s: Story, t: number, request: string): string {
  const active = s.tabs[t % s.tabs.length]!;
  const tabs = s.tabs.map((p) => `- ${p.replace(/^.*[\\/]/, '')}: ${p}`).join('\n');
  const selection = t % 3 === 0 ? `\n\n## Active selection of the file:\nconst team = await getTeam(params.teamId);\nif (!team) notFound();` : '';
  return `# Context from my IDE setup:\n\n## Active file: ${active}${selection}\n\n## Open tabs:\n${tabs}\n\n## My request for Codex:\n${request}\n`;
}

export function codexRollout(s: Story, id: string): string {
  let k = 0;
  const ts = () => time(0, k++);
  const lines: unknown[] = [
    {
      timestamp: ts(),
      type: 'session_meta',
      payload: { id, timestamp: ts(), cwd: s.cwd, originator: 'codex_vscode', cli_version: '0.131.0', source: 'vscode', model_provider: 'openai' },
    },
    { timestamp: ts(), type: 'turn_context', payload: { cwd: s.cwd, model: 'gpt-5.1-codex', approval_policy: 'on-request' } },
  ];
  const item = (payload: unknown) => lines.push({ timestamp: ts(), type: 'response_item', payload });
  s.turns.forEach((turn, t) => {
    const text = ideBlock(s, t, turn.request);
    lines.push({ timestamp: ts(), type: 'event_msg', payload: { type: 'user_message', message: text, images: [] } });
    const parts = [{ type: 'input_text', text }];
    if (t === 0)
      parts.unshift({
        type: 'input_text',
        text: `<environment_context>\n  <cwd>${s.cwd}</cwd>\n  <shell>${s.windows ? 'powershell' : 'bash'}</shell>\n</environment_context>`,
      });
    item({ type: 'message', role: 'user', content: parts });
    turn.calls.forEach((c, n) => {
      const call_id = `call_${t}_${n}`;
      if (c.kind === 'plan') {
        item({
          type: 'function_call',
          name: 'update_plan',
          arguments: JSON.stringify({ plan: c.items.map((i) => ({ step: i.text, status: i.status })) }),
          call_id,
        });
        item({ type: 'function_call_output', call_id, output: 'Plan updated' });
      } else if (c.kind === 'read' || c.kind === 'run') {
        const command = c.kind === 'read' ? SHELL_OF_READ(s, c.path) : s.windows ? ['powershell.exe', '-Command', c.command] : ['bash', '-lc', c.command];
        item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command, workdir: s.cwd }), call_id });
        const output = c.kind === 'read' ? c.output : c.output;
        const exit = c.kind === 'run' && c.error ? 1 : 0;
        item({ type: 'function_call_output', call_id, output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.4 } }) });
      } else {
        item({ type: 'custom_tool_call', name: 'apply_patch', input: patch(c), call_id, status: 'completed' });
        item({
          type: 'custom_tool_call_output',
          call_id,
          output: c.kind === 'declined' ? 'patch rejected by user' : `Success. Updated the following files:\n${c.path}`,
        });
      }
    });
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.answer }] });
    lines.push({ timestamp: ts(), type: 'event_msg', payload: { type: 'agent_message', message: turn.answer } });
  });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

// ── Claude Code ─────────────────────────────────────────────────────────────────────────────

const REMINDER =
  "<system-reminder>\nThe TodoWrite tool hasn't been used recently. If you're working on tasks that would benefit from tracking progress, consider using the TodoWrite tool.\n</system-reminder>";
const DECLINED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

export function claudeSession(s: Story, sessionId: string): string {
  let n = 0;
  let parent: string | null = null;
  const uuid = () => `${sessionId.slice(0, 8)}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const base = { isSidechain: false, userType: 'external', cwd: s.cwd, sessionId, version: '2.1.328', gitBranch: 'main' };
  const lines: unknown[] = [];
  // The titles of other sessions Claude Code writes at the top of a file.
  for (let i = 0; i < 16; i++)
    lines.push({
      type: 'summary',
      summary: `Other work ${i + 1}: ${['billing', 'auth', 'ci', 'docs'][i % 4]} fixes`,
      leafUuid: `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`,
    });
  const push = (type: 'user' | 'assistant', message: unknown, extra: Record<string, unknown> = {}) => {
    const id = uuid();
    lines.push({ parentUuid: parent, ...base, type, message, uuid: id, timestamp: time(1, n), ...extra });
    parent = id;
  };
  const assistant = (content: unknown[]) =>
    push('assistant', {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content,
      usage: { input_tokens: 10, output_tokens: 10 },
    });
  s.turns.forEach((turn: Turn, t) => {
    const content: unknown[] = [];
    if (t % 4 === 1)
      content.push({
        type: 'text',
        text: `<ide_opened_file>The user opened the file ${s.cwd}/${s.tabs[0]} in the IDE. This may or may not be related to the current task.</ide_opened_file>`,
      });
    content.push({ type: 'text', text: turn.request });
    if (t % 3 === 2) content.push({ type: 'text', text: REMINDER });
    push('user', { role: 'user', content });
    turn.calls.forEach((c, k) => {
      const id = `toolu_${t}_${k}`;
      let tool: { name: string; input: unknown; out: string; error?: boolean };
      if (c.kind === 'plan')
        tool = {
          name: 'TodoWrite',
          input: { todos: c.items.map((i) => ({ content: i.text, status: i.status, activeForm: i.text })) },
          out: 'Todos have been modified successfully.',
        };
      else if (c.kind === 'read') tool = { name: 'Read', input: { file_path: `${s.cwd}/${c.path}` }, out: c.output };
      else if (c.kind === 'write')
        tool = { name: 'Write', input: { file_path: `${s.cwd}/${c.path}`, content: c.content }, out: `File created successfully at: ${s.cwd}/${c.path}` };
      else if (c.kind === 'edit')
        tool = {
          name: 'Edit',
          input: { file_path: `${s.cwd}/${c.path}`, old_string: c.before, new_string: c.after },
          out: `The file ${s.cwd}/${c.path} has been updated.`,
        };
      else if (c.kind === 'declined')
        tool = { name: 'Edit', input: { file_path: `${s.cwd}/${c.path}`, old_string: c.before, new_string: c.after }, out: DECLINED, error: true };
      else tool = { name: 'Bash', input: { command: c.command, description: 'Run the checks' }, out: c.output, error: c.error };
      assistant([{ type: 'tool_use', id, name: tool.name, input: tool.input }]);
      push('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: tool.out, is_error: tool.error === true }] });
      if (c.kind === 'declined') push('user', { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] });
    });
    assistant([{ type: 'text', text: turn.answer }]);
  });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

// ── Cline ───────────────────────────────────────────────────────────────────────────────────

function environment(s: Story, t: number): string {
  return `<environment_details>\n# VSCode Visible Files\n${s.tabs[0]}\n\n# VSCode Open Tabs\n${s.tabs.join('\n')}\n\n# Current Time\n6/2/2026, ${9 + (t % 8)}:0${t % 10}:00 AM (Europe/Berlin, UTC+2:00)\n\n# Context Window Usage\n${12000 + t * 900} / 200K tokens used (${6 + t}%)\n\n# Current Mode\nACT MODE\n</environment_details>`;
}

function clineCall(c: Call): { xml: string; header: string; out: string } {
  const progress =
    c.kind === 'plan' ? `\n<task_progress>\n${c.items.map((i) => `- [${i.status === 'completed' ? 'x' : ' '}] ${i.text}`).join('\n')}\n</task_progress>` : '';
  if (c.kind === 'read') return { xml: `<read_file>\n<path>${c.path}</path>\n</read_file>`, header: `[read_file for '${c.path}'] Result:`, out: c.output };
  if (c.kind === 'write')
    return {
      xml: `<write_to_file>\n<path>${c.path}</path>\n<content>\n${c.content}\n</content>\n</write_to_file>`,
      header: `[write_to_file for '${c.path}'] Result:`,
      out: `The content was successfully saved to ${c.path}.`,
    };
  if (c.kind === 'edit' || c.kind === 'declined') {
    const diff = `------- SEARCH\n${c.before}\n=======\n${c.after}\n+++++++ REPLACE`;
    const out = c.kind === 'declined' ? 'The user denied this operation.' : `The content was successfully saved to ${c.path}.`;
    return {
      xml: `<replace_in_file>\n<path>${c.path}</path>\n<diff>\n${diff}\n</diff>\n</replace_in_file>`,
      header: `[replace_in_file for '${c.path}'] Result:`,
      out,
    };
  }
  if (c.kind === 'run')
    return {
      xml: `<execute_command>\n<command>${c.command}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`,
      header: `[execute_command for '${c.command}'] Result:`,
      out: `Command executed.\nOutput:\n${c.output}`,
    };
  return {
    xml: `<execute_command>\n<command>git status --short</command>\n<requires_approval>false</requires_approval>${progress}\n</execute_command>`,
    header: `[execute_command for 'git status --short'] Result:`,
    out: 'Command executed.\nOutput:\n M apps/web/lib/db/teams.ts',
  };
}

export function clineTask(s: Story): string {
  const messages: unknown[] = [];
  s.turns.forEach((turn, t) => {
    const words = t === 0 ? `<task>\n${turn.request}\n</task>` : `<feedback>\n${turn.request}\n</feedback>`;
    const opening =
      t === 0
        ? [{ type: 'text', text: words }]
        : [
            { type: 'text', text: '[attempt_completion] Result:' },
            {
              type: 'text',
              text: `The user has provided feedback on the results. Consider their input to continue the task, and then attempt completion again.\n${words}`,
            },
          ];
    messages.push({ role: 'user', content: [...opening, { type: 'text', text: environment(s, t) }] });
    turn.calls.forEach((c) => {
      const { xml, header, out } = clineCall(c);
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `<thinking>\nNext I use the tool for this step.\n</thinking>\n\n${xml}` }] });
      messages.push({
        role: 'user',
        content: [
          { type: 'text', text: header },
          { type: 'text', text: out },
          { type: 'text', text: environment(s, t) },
        ],
      });
    });
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `<attempt_completion>\n<result>\n${turn.answer}\n</result>\n</attempt_completion>` }],
    });
  });
  return JSON.stringify(messages, null, 2);
}

/** The bench's agent sessions: each story as each agent's file. */
export function agentFiles(stories: readonly Story[]): AgentFile[] {
  const out: AgentFile[] = [];
  stories.forEach((s, i) => {
    const id = `019a${String(i).padStart(4, '0')}-0000-7000-8000-00000000000${i}`;
    out.push({ rel: `agents/codex/rollout-2026-06-02T09-00-00-${id}.jsonl`, format: 'codex', text: codexRollout(s, id) });
    out.push({
      rel: `agents/claude-code/${s.name}.jsonl`,
      format: 'claude-code',
      text: claudeSession(s, `5b53${String(i).padStart(4, '0')}-47c8-4996-bc4e-3896a787c8ab`),
    });
    out.push({ rel: `agents/cline/${s.name}/api_conversation_history.json`, format: 'cline', text: clineTask(s) });
  });
  return out;
}
