// The README's setup snippets, as the tests use them: a fenced block after an HTML comment marker
// (`<!-- claude-code-hooks -->`, `<!-- mcp-claude-code -->` …), with the placeholder path of the
// CLI that the README names. The agents test and the unit tests read them from here, so what the
// README tells a person to paste is what the tests install.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The path the README's snippets name for dist/cli.js. */
export const README_CLI_PLACEHOLDER = '/path/to/context-compactor/dist/cli.js';

/** The fenced `lang` block after `<!-- mark -->` in the README.
 *  @param {string} repoRoot @param {string} mark @param {string} lang @returns {string} */
export function readmeBlock(repoRoot, mark, lang) {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const m = new RegExp(`<!-- ${mark} -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (!m) throw new Error(`README.md has no \`\`\`${lang} block after <!-- ${mark} -->`);
  return m[1];
}
