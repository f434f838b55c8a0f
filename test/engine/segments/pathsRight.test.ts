// Paths as an agent must read them back: whole (leading folders and route segments kept), one
// file per path (never two glued through an escaped newline), Windows spellings recognised, and
// only real files counted as created (no device, no arrow or comparison inside quoted code).

import { describe, expect, it } from 'vitest';
import { extractFilePaths, extractToolCallPaths } from '../../../src/engine/analyze/refs';
import { shellCommandKind } from '../../../src/engine/analyze/toolKinds';
import { buildSpanView, patchFileActions, shellFileActions } from '../../../src/engine/segments/spanView';
import type { Message } from '../../../src/engine/conversation/model';
import { extractSections } from '../../../src/engine/segments/extractSections';
import { oneLine } from '../../../src/engine/text/textCut';
import { ConversationBuilder } from '../../helpers/compactorFixtures';

describe('file paths in text', () => {
  it('keeps the leading folders of framework route segments', () => {
    expect(extractFilePaths('see apps/web/app/(protected)/settings/teams/components/TeamSheet.tsx')).toEqual([
      'apps/web/app/(protected)/settings/teams/components/TeamSheet.tsx',
    ]);
    expect(extractFilePaths('pages/blog/[slug].tsx and app/[...all]/page.tsx, routes/[[lang]]/+page.svelte')).toEqual([
      'pages/blog/[slug].tsx',
      'app/[...all]/page.tsx',
      'routes/[[lang]]/+page.svelte',
    ]);
    // Parentheses around a path are not part of it.
    expect(extractFilePaths('(see src/a.ts)')).toEqual(['src/a.ts']);
  });

  it('splits two paths glued by an escaped newline, never a product folder', () => {
    expect(extractFilePaths('cat src/a.ts\\nsrc/b.ts')).toEqual(['src/a.ts', 'src/b.ts']);
    expect(extractFilePaths('Updated src/a.ts/nsrc/b.ts')).toEqual(['src/a.ts', 'src/b.ts']);
    expect(extractFilePaths('examples/next.js/next.config.js')).toEqual(['examples/next.js/next.config.js']);
  });

  it('reads Windows paths: backslashes, drive letters, and backslashes escaped as JSON', () => {
    expect(extractFilePaths('edit src\\lib\\auth.ts now')).toEqual(['src/lib/auth.ts']);
    expect(extractFilePaths('D:\\work\\new\\file.ts')).toEqual(['D:/work/new/file.ts']);
    expect(extractFilePaths('"path": "src\\\\lib\\\\auth.ts"')).toEqual(['src/lib/auth.ts']);
    expect(extractToolCallPaths({ id: 'c', name: 'write_to_file', arguments: JSON.stringify({ path: 'src\\lib\\auth.ts', content: 'x' }) })).toEqual([
      'src/lib/auth.ts',
    ]);
  });
});

describe('what shell commands do to files', () => {
  it('devices, arrows and quoted code are not created files', () => {
    for (const cmd of [
      'dir src 2>nul',
      'cmd /c "npm test 2>&1 > nul"',
      'echo hi > $null',
      'node -e "p.then(r => console.error(r))"',
      'python -c "import sys; print(1 > 2)"',
    ])
      expect(shellFileActions(cmd).filter((f) => f.action === 'created')).toEqual([]);
    expect(shellCommandKind('python -c "import sys; print(1 > 2)"')).toBe('run');
  });

  it('PowerShell and cmd verbs read, write and delete', () => {
    expect(shellFileActions('Get-Content src\\lib\\auth.ts | Out-File -FilePath build\\log.txt')).toEqual([
      { path: 'src/lib/auth.ts', action: 'read' },
      { path: 'build/log.txt', action: 'created' },
    ]);
    expect(shellFileActions('Remove-Item dist\\old.js')).toEqual([{ path: 'dist/old.js', action: 'deleted' }]);
    expect(shellCommandKind('Set-Content -Path src\\a.ts -Value x')).toBe('edit');
  });

  it('an apply_patch call acts on the files its headers name, not on the paths its code mentions', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src\\lib\\auth.ts',
      "+import { db } from '../db/client.ts';",
      '*** Update File: src/app.ts',
      '@@',
      "-import x from './old.ts';",
      '*** Delete File: src/legacy.ts',
      '*** End Patch',
    ].join('\n');
    expect(patchFileActions(patch)).toEqual([
      { path: 'src/lib/auth.ts', action: 'created' },
      { path: 'src/app.ts', action: 'edited' },
      { path: 'src/legacy.ts', action: 'deleted' },
    ]);
    const asCall = (name: string, args: string): Message => ({
      id: 'a',
      role: 'assistant',
      itemType: 'ASSISTANT_MESSAGE',
      content: [],
      toolCalls: [{ id: 'c1', name, arguments: args }],
    });
    for (const m of [
      asCall('apply_patch', patch),
      asCall('shell', JSON.stringify({ command: ['apply_patch', patch] })),
      asCall('apply_patch', JSON.stringify({ input: patch })),
    ]) {
      const view = buildSpanView([m], [undefined]);
      expect(view.calls[0]!.files.map((f) => `${f.path} ${f.action}`)).toEqual(['src/lib/auth.ts created', 'src/app.ts edited', 'src/legacy.ts deleted']);
      expect(view.calls[0]!.kind).toBe('edit');
    }
  });
});

describe('a path is never cut mid-word', () => {
  it('one-line cuts keep a path whole, and cut other text between words', () => {
    const path = 'apps/web/app/(protected)/settings/teams/components/TeamSheet.tsx';
    expect(oneLine(`Read ${path} and then the tests`, 30)).toBe(`Read ${path}…`);
    expect(oneLine('The quick brown fox jumps over the lazy dog', 20)).toBe('The quick brown fox…');
  });

  it('at the emergency level, every file still named is named whole', () => {
    const paths = Array.from({ length: 30 }, (_, k) => `apps/web/app/(protected)/settings/teams/components/very/deep/folder${k}/TeamSheetPanel${k}.tsx`);
    const b = new ConversationBuilder().user('Refactor the team settings panels.');
    for (const p of paths) b.tool('Edit', { file_path: p, old_string: 'a', new_string: 'b' }, 'ok');
    for (const budget of [80, 200, 400]) {
      const files = extractSections(b.messages, undefined, budget, { emergency: true }).sections['Files and Code Sections'];
      for (const m of files.matchAll(/`([^`]+)`/g)) expect(paths, `budget ${budget}`).toContain(m[1]);
    }
  });
});
