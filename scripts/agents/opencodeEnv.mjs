// What the agents test and the fixture capture share about running the real opencode offline: its
// environment (no update check, no model list fetched, no sharing, no LSP download) and a config
// with one OpenAI-compatible provider pointing at the fake model server (verified with opencode
// 1.18.33: the provider package is built in; the first run still asks the npm registry for some
// package metadata, which is harmless).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, FAKE_API_KEY } from './sessionFixtures.mjs';

export const OPENCODE_MODEL = 'fake-model';
/** The model's window in the config: a reported usage at or above it makes opencode compact. */
export const OPENCODE_WINDOW = 200_000;

export function opencodeEnv(home, extra = {}) {
  return {
    ...baseEnv(home),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    ...extra,
  };
}

/** `~/.config/opencode/opencode.json` for the fake server, with `extra` keys (compaction, plugin …). */
export function opencodeConfig(home, server, extra = {}) {
  const dir = join(home, '.config', 'opencode');
  mkdirSync(dir, { recursive: true });
  const config = {
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${server.url}/v1`, apiKey: FAKE_API_KEY },
        models: { [OPENCODE_MODEL]: { name: 'Fake Model', limit: { context: OPENCODE_WINDOW, output: 8000 } } },
      },
    },
    model: `fake/${OPENCODE_MODEL}`,
    small_model: `fake/${OPENCODE_MODEL}`,
    autoupdate: false,
    share: 'disabled',
    ...extra,
  };
  const file = join(dir, 'opencode.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}
