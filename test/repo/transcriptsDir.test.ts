// The shared transcripts are found in exactly three ways: the folder in CTXC_TRANSCRIPTS, else
// ../shared/transcripts beside the repository, else the repository's own copy (test/transcripts).
// Anything else is a clear error, never a guess. The repository's copy is the files byte for byte.

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTranscriptsDir, listTranscripts, REPO_TRANSCRIPTS, TRANSCRIPTS_ENV } from '../../scripts/transcripts.mjs';
import { repoRoot } from '../helpers/transcripts';

function folderWithManifest(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'MANIFEST.md'), '# transcripts\n');
  return dir;
}

describe('findTranscriptsDir', () => {
  let base: string;
  let saved: string | undefined;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'ctxc-transcripts-'));
    saved = process.env[TRANSCRIPTS_ENV];
    delete process.env[TRANSCRIPTS_ENV];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[TRANSCRIPTS_ENV];
    else process.env[TRANSCRIPTS_ENV] = saved;
  });

  it('finds ../shared/transcripts beside the repository', () => {
    const shared = folderWithManifest(join(base, 'shared', 'transcripts'));
    expect(findTranscriptsDir(join(base, 'repo'))).toBe(shared);
  });

  it('takes the folder in CTXC_TRANSCRIPTS over the one beside the repository', () => {
    folderWithManifest(join(base, 'shared', 'transcripts'));
    const elsewhere = folderWithManifest(join(base, 'elsewhere'));
    process.env[TRANSCRIPTS_ENV] = elsewhere;
    expect(findTranscriptsDir(join(base, 'repo'))).toBe(elsewhere);
  });

  it('names the variable when its folder holds no MANIFEST.md, and does not fall back', () => {
    folderWithManifest(join(base, 'shared', 'transcripts'));
    process.env[TRANSCRIPTS_ENV] = join(base, 'empty');
    expect(() => findTranscriptsDir(join(base, 'repo'))).toThrow(`no MANIFEST.md in CTXC_TRANSCRIPTS=${join(base, 'empty')}`);
  });

  it("falls back to the repository's own copy when there is none beside it, and prefers the one beside", () => {
    const own = folderWithManifest(join(base, 'repo', REPO_TRANSCRIPTS));
    expect(findTranscriptsDir(join(base, 'repo'))).toBe(own);
    const shared = folderWithManifest(join(base, 'shared', 'transcripts'));
    expect(findTranscriptsDir(join(base, 'repo'))).toBe(shared);
  });

  it('names the folder it looked in when there is none beside the repository', () => {
    expect(() => findTranscriptsDir(join(base, 'repo'))).toThrow(`no MANIFEST.md in ${join(base, 'shared', 'transcripts')} (beside the repository)`);
  });

  it('lists transcripts without sidecars or licenses', () => {
    const dir = folderWithManifest(join(base, 'shared', 'transcripts'));
    mkdirSync(join(dir, 'b'));
    mkdirSync(join(dir, 'a'));
    for (const f of ['b/run.jsonl', 'b/run.source.json', 'b/LICENSE', 'a/chat.md']) writeFileSync(join(dir, f), '');
    expect(listTranscripts(dir)).toEqual(['a/chat.md', 'b/run.jsonl']);
  });
});

describe("the repository's copy (test/transcripts)", () => {
  it('holds every file byte for byte as its source sidecar records it (sha256)', () => {
    const dir = join(repoRoot, REPO_TRANSCRIPTS);
    const files = listTranscripts(dir);
    expect(files.length).toBe(11);
    for (const f of files) {
      const source = JSON.parse(readFileSync(join(dir, `${f}.source.json`), 'utf8')) as { sha256: string; license: string };
      expect(
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
        f,
      ).toBe(source.sha256);
      expect(source.license, f).toBeTruthy();
    }
  });
});
