// The opencode plugin Context Compactor installs: built on its own into dist/opencode-plugin.mjs
// (esbuild.mjs) and named in opencode's config with the command it runs,
//   "plugin": [["file:///…/dist/opencode-plugin.mjs", {"command": "node \"…/cli.js\" hook opencode"}]]
// (opencode 1.18.33 passes a plugin's options as its second argument: verified). Two hooks:
//   experimental.session.compacting        before opencode summarizes a session: the must-keep
//                                          facts of the conversation, added to its summary prompt
//   experimental.compaction.autocontinue   after an automatic compaction: opencode goes on by itself
//                                          unless the loop guard says that is one too many
// Each runs the command with the event as JSON on its standard input and reads one JSON object
// from its output (`ctxc hook opencode`: sessions/agents/opencode/hook.ts). Anything that goes
// wrong — no command, a crash, a timeout, output that is not JSON — changes nothing: opencode goes
// on as if the plugin were not there. Nothing of ours is imported: opencode loads this file alone.

import { spawn } from 'node:child_process';

interface PluginContext {
  directory?: string;
}

interface PluginOptions {
  command?: string;
}

const COMPACTING_TIMEOUT_MS = 30_000;
const CONTINUE_TIMEOUT_MS = 10_000;

/** The command's answer to one event, or undefined. */
function ask(command: string, event: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      resolve(undefined);
      return;
    }
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(undefined);
    }, timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', () => {
      clearTimeout(timer);
      try {
        const value: unknown = JSON.parse(out.trim().split('\n').pop() ?? '');
        resolve(typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
      } catch {
        resolve(undefined);
      }
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify(event));
  });
}

export const ContextCompactor = async (ctx: PluginContext, options: PluginOptions = {}) => {
  const command = typeof options?.command === 'string' ? options.command : undefined;
  if (!command) return {};
  return {
    'experimental.session.compacting': async (input: { sessionID?: string }, output: { context?: string[] }) => {
      const r = await ask(command, { hook_event_name: 'session.compacting', session_id: input?.sessionID, directory: ctx?.directory }, COMPACTING_TIMEOUT_MS);
      if (typeof r?.['context'] === 'string' && r['context'] !== '' && Array.isArray(output?.context)) output.context.push(r['context']);
    },
    'experimental.compaction.autocontinue': async (input: { sessionID?: string; overflow?: boolean }, output: { enabled?: boolean }) => {
      const r = await ask(
        command,
        { hook_event_name: 'compaction.autocontinue', session_id: input?.sessionID, directory: ctx?.directory, overflow: input?.overflow === true },
        CONTINUE_TIMEOUT_MS,
      );
      if (r?.['enabled'] !== false || !output) return;
      output.enabled = false;
      // opencode shows nothing when it does not go on: say why where its output goes.
      if (typeof r['reason'] === 'string') console.error(r['reason']);
    },
  };
};
