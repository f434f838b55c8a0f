// What a tool call does, judged from its name and (for shell tools) its command line:
// edits files, runs tests/builds, runs something else, searches, reads, or something else.
// Task-type detection and key tool results build on this.

import type { ToolCall } from '../conversation/model';

export type ToolKind = 'edit' | 'test' | 'run' | 'search' | 'read' | 'other';

/** A tool result saying the person declined the call (Claude Code "The user doesn't want to
 *  proceed with this tool use", Cline and Roo "The user denied this operation.", Codex "exec
 *  command rejected by user", "User rejected …", "cancelled by the user"), on its first line. */
const DECLINED =
  /^\s*(?:\[[^\]\n]{1,200}\]\s*Result:\s*)?(?:[^\n]{0,60}?\b(?:rejected|denied|declined|cancell?ed|aborted|not approved|not allowed)\b[^\n]{0,30}?\bby (?:the )?user\b|(?:the )?user\b[^\n]{0,20}?\b(?:rejected|denied|declined|cancell?ed|did not allow|didn't allow|did not approve|doesn't want to proceed)\b)/i;

/** Whether a tool result is the person declining the call (an event, not an error). */
export function isDeclinedResult(text: string): boolean {
  return DECLINED.test(text.slice(0, 400));
}

/** Tools an agent calls to say the task is finished (Cline/Roo, OpenHands, SWE-agent). */
export const COMPLETION_TOOLS: ReadonlySet<string> = new Set(['attempt_completion', 'finish', 'submit', 'task_complete', 'complete_task']);

/** File-editing tools across agents (Claude Code, Cline/Roo, OpenHands, SWE-agent, aider, Codex, MCP). */
const EDIT_TOOLS: ReadonlySet<string> = new Set([
  'edit',
  'multiedit',
  'write',
  'notebookedit',
  'edit_file',
  'write_file',
  'create_file',
  'str_replace',
  'str_replace_editor',
  'str_replace_based_edit_tool',
  'apply_patch',
  'apply_diff',
  'replace_in_file',
  'write_to_file',
  'insert_content',
  'search_and_replace',
  'insert',
  'create',
  'patch',
  'edit_notebook',
  'fileedit',
  'filewrite',
  'replace',
  'replace_string_in_file',
  'multi_replace_string_in_file',
  'insert_edit_into_file',
  'edit_notebook_file',
  'search_replace',
  'replace_file_content',
  'delete_file',
]);

/** Search, listing and retrieval tools. */
const SEARCH_TOOLS: ReadonlySet<string> = new Set([
  'grep',
  'glob',
  'ls',
  'search',
  'search_files',
  'search_dir',
  'search_file',
  'find_file',
  'codebase_search',
  'semantic_search',
  'list_files',
  'list_dir',
  'list_directory',
  'find',
  'fd',
  'rg',
  'ripgrep',
  'web_search',
  'websearch',
  'webfetch',
  'web_fetch',
  'fetch',
  'browse',
  'browser',
  'retrieve',
  'retrieve_memory',
  'query',
  'lookup',
]);

/** Read-only file tools. */
const READ_TOOLS: ReadonlySet<string> = new Set(['read', 'read_file', 'view', 'view_file', 'open_file', 'notebookread', 'read_code', 'cat', 'read_many_files']);

/** Tools that run a shell command given in their arguments. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set([
  'bash',
  'shell',
  'sh',
  'run_command',
  'execute_command',
  'execute_bash',
  'run_shell_command',
  'run_terminal_cmd',
  'terminal',
  'exec',
  'cmd',
  'powershell',
  'execute_script',
  'run',
]);

/** Redirects into a file (not /dev/null, not fd duplication), in-place edits, heredocs into files, patch tools. */
const SHELL_EDIT =
  /(?:^|[^0-9&<>=-])>>?\s*(?!\/dev\/null|&|nul\b|\$null)["']?[\w./~-]+|\bsed\s+(?:-[a-zA-Z]*i|--in-place)|\bperl\s+-[a-zA-Z]*i|\btee\s+(?!-)\S|\bpatch\s|\bapply_patch\b|\bgit\s+apply\b|\bgit\s+am\b|\bgit\s+(?:checkout|restore)\b[^\n|;&]*\.\w{1,5}\b|\btouch\s|\bmkdir\s|\bmv\s|\bcp\s|\brm\s|\b(?:Set-Content|Add-Content|Out-File|New-Item|Copy-Item|Move-Item|Rename-Item|Remove-Item)\b|^(?:del|erase|copy|move|ren|md)\s/i;
const SHELL_TEST =
  /\b(?:pytest|py\.test|unittest|tox|nox|jest|vitest|mocha|phpunit|rspec|ctest|runtests(?:\.py)?|bin\/test)\b|\b(?:npm|yarn|pnpm|bun)\s+(?:run\s+)?(?:test|build|lint|typecheck|check)\b|\b(?:go|cargo|dotnet|mvn|gradle|mix|swift)\s+(?:test|build|check)\b|\bmake(?:\s+(?:test|check|build|all))?\s*$|\btsc\b|\bgcc\b|\bg\+\+\b|\bclang\b/;
const SHELL_SEARCH =
  /^(?:grep|egrep|fgrep|rg|ag|ack|fd|find|ls|tree|locate|git\s+(?:grep|log|status|show|diff|blame|ls-files)|dir|findstr|Select-String|Get-ChildItem|gci|sls)\b/i;
const SHELL_READ = /^(?:cat|head|tail|less|more|nl|wc|sed\s+-n|awk|sort|uniq|file|stat|xxd|od|jq|type|Get-Content|gc)\b/i;

/** Lower-cased tool name without an MCP server prefix ("mcp__fs__read_file" → "read_file"). */
export function normalizeToolName(name: string): string {
  const lower = name.toLowerCase();
  const i = lower.lastIndexOf('__');
  return i >= 0 ? lower.slice(i + 2) : lower;
}

/** The command line of a shell-like call: its "command"/"cmd"/"script" argument, if any. */
export function shellCommandOf(call: ToolCall): string | undefined {
  const name = normalizeToolName(call.name);
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return SHELL_TOOLS.has(name) ? call.arguments : undefined;
  }
  if (typeof args === 'string') return SHELL_TOOLS.has(name) ? args : undefined;
  if (args === null || typeof args !== 'object') return undefined;
  const o = args as Record<string, unknown>;
  for (const k of ['command', 'cmd', 'script']) {
    const v = o[k];
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return shellScriptOf(v as string[]);
  }
  return undefined;
}

/** A shell that runs its last argument as a script: ["bash", "-lc", "…"] (Codex), ["powershell.exe",
 *  "-Command", "…"], ["cmd", "/c", "…"]. */
const SCRIPT_SHELL = /^(?:.*[\\/])?(?:bash|sh|zsh|dash|fish|pwsh|powershell|cmd)(?:\.exe)?$/i;
const SCRIPT_FLAG = /^(?:-[a-z]*c|-Command|\/c|\/s)$/i;

/** The command line of an argument vector: the script a shell is given, else the words joined. */
function shellScriptOf(argv: readonly string[]): string {
  const flag = argv.findIndex((a, i) => i > 0 && SCRIPT_FLAG.test(a));
  if (argv.length >= 3 && SCRIPT_SHELL.test(argv[0]!) && flag > 0 && flag === argv.length - 2) return argv[argv.length - 1]!;
  return argv.join(' ');
}

const KIND_RANK: Record<ToolKind, number> = { edit: 5, test: 4, run: 3, search: 2, read: 1, other: 0 };

/** The simple commands of a shell line, split at && || ; | and newlines outside quotes (the `;`
 *  of `python -c "import sys; …"` is code). Heredoc bodies are file contents, not commands: only
 *  the line that starts one stays. */
export function commandParts(command: string): string[] {
  const line = command.replace(/<<-?\s*['"]?(\w+)['"]?([^\n]*)\n[\s\S]*?\n\s*\1\s*(?:\n|$)/g, '<<$1$2\n');
  if (!/['"]/.test(line)) return line.split(/&&|\|\||;|\n|\|/);
  // Split where the line with its quoted strings blanked has a separator.
  // A quote is taken on one line: an apostrophe in a comment ("# I'll revert") must not pair with
  // a quote lines later.
  const bare = line.replace(/'[^'\n]*'|"(?:[^"\\\n]|\\.)*"/g, (q) => ' '.repeat(q.length));
  const parts: string[] = [];
  let from = 0;
  for (const m of bare.matchAll(/&&|\|\||;|\n|\|/g)) {
    parts.push(line.slice(from, m.index));
    from = m.index + m[0].length;
  }
  parts.push(line.slice(from));
  return parts;
}

/** A wrapper in front of the command proper (`sudo`, `time`, `env A=1`). */
export const COMMAND_WRAPPER = /^(?:sudo|time|env(?:\s+\w+=\S+)*)\s+/;

/**
 * Kind of one shell command line. Compound commands (`cd x && sed -i … && python t.py`) take the
 * strongest kind of their parts: edit > test > run > search > read.
 */
export function shellCommandKind(command: string): ToolKind {
  let best: ToolKind = 'other';
  for (const raw of commandParts(command)) {
    const part = raw.trim().replace(COMMAND_WRAPPER, '');
    if (!part || /^(?:cd|export|echo|printf|source|\.|set|#)\b/.test(part)) {
      if (part && /^(?:echo|printf)\b/.test(part) && SHELL_EDIT.test(part)) best = KIND_RANK.edit > KIND_RANK[best] ? 'edit' : best;
      continue;
    }
    let kind: ToolKind;
    // A ">" inside quoted code (`python -c "print(1 > 2)"`) is no redirect.
    if (SHELL_EDIT.test(/['"]/.test(part) ? part.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '""') : part)) kind = 'edit';
    else if (SHELL_TEST.test(part)) kind = 'test';
    else if (SHELL_SEARCH.test(part)) kind = 'search';
    else if (SHELL_READ.test(part)) kind = 'read';
    else kind = 'run';
    if (KIND_RANK[kind] > KIND_RANK[best]) best = kind;
  }
  return best;
}

/** Kind of one tool call: by its name, else by its shell command, else 'other'. */
export function toolCallKind(call: ToolCall): ToolKind {
  const name = normalizeToolName(call.name);
  if (EDIT_TOOLS.has(name)) return 'edit';
  if (READ_TOOLS.has(name)) return 'read';
  if (SEARCH_TOOLS.has(name)) return 'search';
  const command = shellCommandOf(call);
  if (command !== undefined && (SHELL_TOOLS.has(name) || command.length > 0)) return shellCommandKind(command);
  return 'other';
}
