// The facts the validator looks for in a summary, as the inspector's "Missing facts" lists them:
// a person's slash command is the command as typed (`/init`), as the summary's "All user
// messages" lists it, never Claude Code's markup around it (the inspector listed
// `<command-name>/clear</command-name> <command-message>clear…` as missing).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../../src/engine/compactor';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { mustKeepFacts } from '../../../src/engine/validate/facts';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { transcriptPath } from '../../helpers/transcripts';

const KILIMAN = 'claude-code/kiliman__claude-transcript__test2.jsonl';

describe('missing facts', () => {
  it('a slash command is the fact as typed, found in the summary, and no fact is command markup (kiliman: /clear, /init)', async () => {
    const file = transcriptPath(KILIMAN);
    const { conversation } = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file });
    const result = await compactConversation(conversation, {
      counter: await createTokenCounter(conversation.meta.model),
      archive: new MemoryArchive(),
      now: '2026-01-01T00:00:00Z',
    });
    const facts = mustKeepFacts(conversation.messages);
    const users = facts.filter((f) => f.kind === 'userMessage').map((f) => f.value);
    expect(users).toContain('/clear');
    expect(users.some((v) => v.startsWith('/init'))).toBe(true);
    expect(facts.filter((f) => f.value.includes('<command-'))).toEqual([]);
    expect(result.loss.missing.filter((f) => f.value.includes('<command-'))).toEqual([]);
  });
});
