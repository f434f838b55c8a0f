// Claude Code sessions of the workspace folders: `<config>/projects/<dir>/<session>.jsonl`, where
// <dir> is the working directory with every non-alphanumeric character replaced by '-' (folders of
// sub-directories of a workspace folder too, when the session's recorded cwd confirms it).
// Sub-agents are children of their session: `<dir>/<session>/subagents/agent-<id>.jsonl` (Claude
// Code 2.1.2 and later) and `<dir>/agent-<id>.jsonl` (earlier, the parent named by its sessionId).
// A session we wrote starts with a compact boundary that names the session it came from.

import { basename, join } from 'node:path';
import type { FoundSession } from '../../agentSession';
import { entriesOf, entryStatOf, headLines, mayBeSessionFile, readJsonFile } from '../../diskReads';
import { claudeProjectName, claudeProjectsDir, isInside } from '../../locations';
import type { SourceContext } from '../sourceContext';
import { isObject, str } from '../../../engine/conversation/importers/jsonShape';
import { PROVENANCE_FIELD } from '../../../engine/conversation/exporters/claudeCodeSession';

/** The head read to find a session's cwd and origin: the first lines are small. */
const HEAD_BYTES = 64 * 1024;

export async function findClaudeCodeSessions(ctx: SourceContext): Promise<FoundSession[]> {
  const projects = claudeProjectsDir(ctx.env, ctx.home);
  const dirs = (await entriesOf(projects)).filter((d) => d.isDirectory());
  const out = new Map<string, FoundSession>();
  for (const folder of ctx.folders) {
    const name = claudeProjectName(folder);
    for (const d of dirs) {
      if (d.name !== name && !d.name.startsWith(`${name}-`)) continue;
      ctx.signal?.throwIfAborted();
      const exact = d.name === name;
      for (const found of await sessionsIn(join(projects, d.name))) {
        // A folder named like a sub-directory may belong to a sibling ("/a/b-c" for "/a/b").
        if (!exact && !(found.cwd && isInside(found.cwd, folder))) continue;
        out.set(found.file, found);
      }
    }
  }
  return [...out.values()];
}

async function sessionsIn(dir: string): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  for (const e of await entriesOf(dir)) {
    const path = join(dir, e.name);
    if (mayBeSessionFile(e) && e.name.endsWith('.jsonl')) {
      const s = await entryStatOf(path);
      if (!s) continue;
      const head = await headFacts(path);
      const legacyAgent = e.name.startsWith('agent-');
      out.push({
        agent: 'claude-code',
        id: basename(e.name, '.jsonl'),
        file: path,
        format: 'claude-code',
        size: s.size,
        mtimeMs: s.mtimeMs,
        ...(head.cwd ? { cwd: head.cwd } : {}),
        ...(legacyAgent && head.sessionId ? { parent: head.sessionId, relation: 'subagent' as const } : {}),
        ...(!legacyAgent && head.compactedFrom ? { parent: head.compactedFrom, relation: 'compacted' as const } : {}),
      });
    } else if (e.isDirectory()) {
      const subagents = join(path, 'subagents');
      for (const a of await entriesOf(subagents)) {
        if (!mayBeSessionFile(a) || !a.name.endsWith('.jsonl')) continue;
        const file = join(subagents, a.name);
        const s = await entryStatOf(file);
        if (!s) continue;
        const head = await headFacts(file);
        // agent-<id>.meta.json beside it says what the sub-agent was asked to do.
        const meta = await readJsonFile(join(subagents, `${basename(a.name, '.jsonl')}.meta.json`), 1024 * 1024);
        const title = isObject(meta) ? str(meta, 'description') : undefined;
        out.push({
          agent: 'claude-code',
          id: `${e.name}/${basename(a.name, '.jsonl')}`,
          file,
          format: 'claude-code',
          size: s.size,
          mtimeMs: s.mtimeMs,
          parent: e.name,
          relation: 'subagent',
          ...(head.cwd ? { cwd: head.cwd } : {}),
          ...(title ? { title } : {}),
        });
      }
    }
  }
  return out;
}

interface HeadFacts {
  cwd?: string;
  sessionId?: string;
  compactedFrom?: string;
}

async function headFacts(file: string): Promise<HeadFacts> {
  const facts: HeadFacts = {};
  const lines = await headLines(file, HEAD_BYTES);
  const first = lines[0];
  if (isObject(first) && first['subtype'] === 'compact_boundary') {
    const p = first[PROVENANCE_FIELD];
    if (isObject(p) && typeof p['from'] === 'string') facts.compactedFrom = p['from'];
  }
  for (const l of lines) {
    if (!isObject(l)) continue;
    if (facts.cwd === undefined && typeof l['cwd'] === 'string') facts.cwd = l['cwd'];
    if (facts.sessionId === undefined && typeof l['sessionId'] === 'string') facts.sessionId = l['sessionId'];
    if (facts.cwd !== undefined && facts.sessionId !== undefined) break;
  }
  return facts;
}
