// `ctxc strategies` and `ctxc compact --strategy NAME --level LEVEL`: every strategy listed
// with what it keeps; the options reach the engine (the JSON names them and equals the engine's
// own run); bad names are usage errors that list the choices.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_USAGE, type CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { listStrategies } from '../../src/engine/strategies/registry';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { repoRoot, transcriptPath } from '../helpers/transcripts';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd: repoRoot };
  const code = await main(args, io);
  return { code, out, err };
}

const FILE = 'mini-swe-agent/pytest-dev__pytest-7490.traj.json';

describe('ctxc strategies', () => {
  it('lists every strategy with its description and what it keeps; adaptive is the default', async () => {
    const r = await run(['strategies']);
    expect(r.code).toBe(0);
    for (const s of listStrategies()) {
      expect(r.out).toContain(s.description);
      expect(r.out).toContain(`keeps: ${s.keeps}`);
    }
    expect(r.out).toMatch(/^adaptive \(default\)$/m);
    expect(r.out).toMatch(/levels \(--level\): light, normal, heavy, emergency/);
    const j = await run(['strategies', '--json']);
    expect(JSON.parse(j.out).map((s: { name: string }) => s.name)).toEqual(listStrategies().map((s) => s.name));
    expect((await run(['strategies', 'x'])).code).toBe(EXIT_USAGE);
  });
});

describe('ctxc compact --strategy --level', () => {
  it('passes them to the engine: the JSON equals the engine run with the same options', async () => {
    const r = await run(['compact', transcriptPath(FILE), '--strategy', 'levels', '--level', 'heavy', '--format', 'json', '--model', 'gpt-4o']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.strategy).toBe('levels');
    expect(j.level).toBe('heavy');
    const conv = importTranscript(readFileSync(transcriptPath(FILE), 'utf8'), { sourcePath: transcriptPath(FILE) }).conversation;
    const engine = await compactConversation(conv, {
      counter: await createTokenCounter('gpt-4o'),
      archive: new MemoryArchive(),
      strategy: 'levels',
      level: 'heavy',
    });
    expect(j.tokensAfter).toBe(engine.tokensAfter);
  });
  it('unknown strategy or level: a usage error naming the choices, no stack trace', async () => {
    const s = await run(['compact', transcriptPath(FILE), '--strategy', 'fastest']);
    expect(s.code).toBe(EXIT_USAGE);
    expect(s.err).toMatch(/--strategy: unknown strategy 'fastest'; expected one of: adaptive, summary, window/);
    const l = await run(['compact', transcriptPath(FILE), '--level', 'extreme']);
    expect(l.code).toBe(EXIT_USAGE);
    expect(l.err).toMatch(/--level expects one of light, normal, heavy, emergency, got 'extreme'/);
    expect(`${s.err}${l.err}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });
});
