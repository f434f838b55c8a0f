// The reference extractors shared by the analyzer, the Files/Errors section builders and the
// information-loss detector: file paths, identifiers, error signatures.

import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/engine/conversation/model';
import {
  extractErrorSignatures,
  extractFilePaths,
  extractIdentifiers,
  extractMessageRefs,
  extractToolCallPaths,
  normalizeFilePath,
} from '../../../src/engine/analyze/refs';

describe('extractFilePaths', () => {
  it('finds unix, windows, home and relative paths with extensions, normalized', () => {
    expect(extractFilePaths('Edit /home/u/proj/src/a.py, then ./b/c.ts and ../lib/d.go; see C:\\Users\\me\\e.json and ~/notes/f.md and g.rs')).toEqual([
      '/home/u/proj/src/a.py',
      'b/c.ts',
      '../lib/d.go',
      'C:/Users/me/e.json',
      '~/notes/f.md',
      'g.rs',
    ]);
  });

  it('finds dotfiles, dotted folders and well-known files without an extension', () => {
    expect(extractFilePaths('Check .github/workflows/ci.yml, .eslintrc.json, .gitignore, the Makefile and docker/Dockerfile')).toEqual([
      '.github/workflows/ci.yml',
      '.eslintrc.json',
      '.gitignore',
      'Makefile',
      'docker/Dockerfile',
    ]);
  });

  it('skips URLs, version numbers, domain names, dotted code and abbreviations', () => {
    expect(
      extractFilePaths(
        'See https://github.com/a/b/blob/main/x.py and www.example.com/y.html; version 1.2.3 or v2.0; example.com, os.path.join, e.g. this, 9 a.m. today, Node.js is fine',
      ),
    ).toEqual([]);
  });

  it('stops at line numbers, test ids and punctuation', () => {
    expect(extractFilePaths('src/a.ts:12:5 and tests/test_x.py::test_y, (lib/z.rs).')).toEqual(['src/a.ts', 'tests/test_x.py', 'lib/z.rs']);
  });

  it('reads a diff header as the file it names, and skips bare extensions and console.log', () => {
    expect(extractFilePaths('diff --git a/CLAUDE.md b/CLAUDE.md\nindex 1a..2b 100644\n--- a/CLAUDE.md\n+++ b/CLAUDE.md\n@@ -1 +1 @@')).toEqual(['CLAUDE.md']);
    expect(extractFilePaths('the fixture lives in a/b/c.ts')).toEqual(['a/b/c.ts']);
    expect(extractFilePaths('emit a .d.ts file, log with console.log, keep .gitignore and .env')).toEqual(['.gitignore', '.env']);
  });

  it('is unique, in order of first appearance, and capped', () => {
    expect(extractFilePaths('b.py a.py b.py ./a.py c.py', 2)).toEqual(['b.py', 'a.py']);
  });

  it('normalizes separators, ./ segments and duplicate slashes', () => {
    expect(normalizeFilePath('.\\src\\a.ts')).toEqual('src/a.ts');
    expect(normalizeFilePath('src//./lib/./b.ts')).toEqual('src/lib/b.ts');
  });
});

describe('extractToolCallPaths', () => {
  const call = (name: string, args: unknown) => ({ id: 'c', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

  it('reads path-like keys as given, even without an extension', () => {
    expect(extractToolCallPaths(call('Read', { file_path: '/repo/src/LICENSE_NOTES' }))).toEqual(['/repo/src/LICENSE_NOTES']);
    expect(extractToolCallPaths(call('MultiRead', { paths: ['a.ts', 'b/c.ts'] }))).toEqual(['a.ts', 'b/c.ts']);
    expect(extractToolCallPaths(call('str_replace_editor', { command: 'view', path: '/testbed/django/db/models.py' }))).toEqual([
      '/testbed/django/db/models.py',
    ]);
  });

  it('reads the files named in shell commands', () => {
    expect(extractToolCallPaths(call('bash', { command: "cd /testbed && sed -n '1,20p' django/conf/settings.py && python reproduce.py" }))).toEqual([
      'django/conf/settings.py',
      'reproduce.py',
    ]);
  });

  it('does not read file contents as references, and scans unparsable arguments as text', () => {
    expect(extractToolCallPaths(call('Write', { file_path: 'a.ts', content: 'import x from "./other.ts"' }))).toEqual(['a.ts']);
    expect(extractToolCallPaths(call('bash', 'cat src/x.py | head'))).toEqual(['src/x.py']);
  });
});

describe('extractIdentifiers', () => {
  it('finds CamelCase, lowerCamel, snake_case, SCREAMING_CASE, dunders, dotted calls and module paths', () => {
    const ids = extractIdentifiers(
      'QuerySet and getUserName use TIME_ZONE via make_aware; __init__ calls os.path.join(x) and self.assertEqual(a); see django.db.backends.mysql',
    );
    expect(ids).toEqual(
      expect.arrayContaining(['QuerySet', 'getUserName', 'TIME_ZONE', 'make_aware', '__init__', 'os.path.join', 'assertEqual', 'django.db.backends.mysql']),
    );
  });

  it('ignores plain words, domains and file names', () => {
    expect(extractIdentifiers('The quick brown fox visits www.example.com and reads notes.txt')).toEqual([]);
  });

  it('puts the most frequent first and caps the list', () => {
    expect(extractIdentifiers('fooBar bazQux bazQux bazQux fooBar quxQuux', 2)).toEqual(['bazQux', 'fooBar']);
  });
});

describe('extractErrorSignatures', () => {
  it('finds the error signatures of common toolchains', () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "x.py", line 3, in <module>',
      '    main()',
      'django.core.exceptions.ImproperlyConfigured: Requested setting DATABASES',
      'E       AssertionError',
      'FAILED tests/test_a.py::test_b - AssertionError: assert 1 == 2',
      "src/a.ts(3,4): error TS2345: Argument of type 'string' is not assignable",
      'error[E0308]: mismatched types',
      'npm ERR! code ERESOLVE',
      'panic: runtime error: index out of range [3] with length 3',
      'bash: pytest: command not found',
      'cat: nothing.txt: No such file or directory',
      "Error: Cannot find module 'left-pad'",
      'TypeError: undefined is not a function',
      '<returncode>2</returncode>',
      'Process exited with code 1',
      'Tests:       2 failed, 5 passed',
    ].join('\n');
    expect(extractErrorSignatures(log)).toEqual([
      'django.core.exceptions.ImproperlyConfigured: Requested setting DATABASES',
      'AssertionError',
      'FAILED tests/test_a.py::test_b',
      'AssertionError: assert 1 == 2',
      "error TS2345: Argument of type 'string' is not assignable",
      'error[E0308]: mismatched types',
      'npm ERR! code ERESOLVE',
      'panic: runtime error: index out of range [3] with length 3',
      'pytest: command not found',
      'nothing.txt: No such file or directory',
      "Error: Cannot find module 'left-pad'",
      'TypeError: undefined is not a function',
      'exit code 2',
      'exit code 1',
      'Tests: 2 failed',
    ]);
  });

  it('ignores exceptions documented in a docstring "Raises:" section', () => {
    const doc = 'def parse(s):\n    """Parse it.\n\n    Raises:\n        ValueError: if s is empty.\n        KeyError: if a key is missing.\n    """';
    expect(extractErrorSignatures(doc)).toEqual([]);
    expect(extractErrorSignatures('Result:\n    ValueError: boom')).toEqual(['ValueError: boom']);
  });

  it('ignores success exit codes and exception names in code', () => {
    expect(extractErrorSignatures('<returncode>0</returncode>\nexit code 0\nexcept (TypeError, ValueError):\n    raise KeyError(k)')).toEqual([]);
  });

  it('collapses whitespace, cuts long signatures and caps the count', () => {
    const long = `ValueError:   ${'x '.repeat(300)}`;
    const [sig] = extractErrorSignatures(long, 20, 50);
    expect(sig!.length).toBe(50);
    expect(sig!.endsWith('…')).toBe(true);
    expect(sig).not.toMatch(/\s{2}/);
    expect(extractErrorSignatures('AError: a\nBError: b\nCError: c', 2)).toEqual(['AError: a', 'BError: b']);
  });

  it('stays fast on a long traceback that never ends in an exception line', () => {
    // The shape that once made the traceback pattern backtrack exponentially.
    const text = `Traceback (most recent call last):\n${'    File "a.py", line 1, in f\n        x = y\n'.repeat(400)}During handling of the above exception, another exception occurred:\n`;
    expect(extractErrorSignatures(text)).toEqual([]);
  });
});

describe('extractMessageRefs', () => {
  it('collects files from tool calls first, identifiers from argument values (not keys), errors from the text', () => {
    const m: Message = {
      id: 'a',
      role: 'assistant',
      itemType: 'ASSISTANT_MESSAGE',
      content: [{ type: 'text', text: 'The TypeError: x is undefined comes from src/app.ts' }],
      toolCalls: [
        {
          id: 'c1',
          name: 'Edit',
          arguments: JSON.stringify({ file_path: '/repo/lib/util.ts', old_string: 'parseConfig(a)', new_string: 'parseConfig(a ?? {})' }),
        },
      ],
    };
    const refs = extractMessageRefs(m);
    expect(refs.files).toEqual(['/repo/lib/util.ts', 'src/app.ts']);
    expect(refs.identifiers).toContain('parseConfig');
    expect(refs.identifiers).not.toContain('file_path');
    expect(refs.identifiers).not.toContain('old_string');
    expect(refs.errors).toEqual(['TypeError: x is undefined comes from src/app.ts']);
  });
});
