// An aider session found in a workspace (the Sessions view, `ctxc sessions`, the meter, the MCP
// server) is read a piece at a time, as the CLI reads a transcript: the same conversation as the
// whole text gives, on every shared aider history, and the same error or empty result where the
// whole read gives one.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streamAiderFile } from '../../src/files/aiderStream';
import { decodeTranscript } from '../../src/files/decodeText';
import { importSessionText, readSession } from '../../src/sessions/sessionCatalog';
import { transcriptFiles, transcriptPath } from '../helpers/transcripts';

const dir = mkdtempSync(join(tmpdir(), 'ctxc-aider-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AIDER = transcriptFiles().filter((f) => f.startsWith('aider/') && f.endsWith('.aider.chat.history.md'));

function found(file: string) {
  return { file, size: statSync(file).size, format: 'aider' as const };
}

describe('readSession: an aider history read in pieces', () => {
  it('has shared aider histories to read', () => {
    expect(AIDER.length).toBeGreaterThan(0);
  });

  it.each(AIDER)('%s: the same conversation as the whole text', async (rel) => {
    const file = join(dir, `${rel.replace(/\W+/g, '_')}.aider.chat.history.md`);
    copyFileSync(transcriptPath(rel), file);
    const streamed = await readSession(found(file), 256 * 1024 * 1024);
    const whole = readSessionWhole(file);
    expect('result' in streamed && streamed.result).toBeTruthy();
    expect(streamed).toEqual(whole);
    // …and it was read in pieces: the stream reader takes this file (it gives undefined for what
    // it leaves to the whole read).
    expect((await streamAiderFile(file, 256 * 1024 * 1024, { sourcePath: file, format: 'aider' }))?.result).toEqual(
      'result' in streamed ? streamed.result : undefined,
    );
  });

  it('an empty history and an oversize one read as before', async () => {
    const empty = join(dir, 'empty.aider.chat.history.md');
    writeFileSync(empty, '  \n\n');
    expect(await readSession(found(empty), 1024)).toEqual({});
    const big = join(dir, 'big.aider.chat.history.md');
    writeFileSync(big, `# aider chat started at 2026-01-01 00:00:00\n\n#### hello\n\n${'x'.repeat(4096)}\n`);
    const over = await readSession(found(big), 1024);
    expect('error' in over ? over.error : '').toMatch(/\d/);
  });

  it('bytes that are not UTF-8 read as the whole file reads', async () => {
    const bad = join(dir, 'latin1.aider.chat.history.md');
    writeFileSync(bad, Buffer.concat([Buffer.from('# aider chat started at 2026-01-01 00:00:00\n\n#### caf'), Buffer.from([0xe9]), Buffer.from('\n\nok\n')]));
    const read = await readSession(found(bad), 1024 * 1024);
    const expected = readSessionWhole(bad);
    expect(read).toEqual(expected);
  });
});

/** The read as it was before streaming: the whole file, decoded as the catalog decodes it. */
function readSessionWhole(file: string) {
  return importSessionText(found(file), () => decodeTranscript(readFileSync(file), file));
}
