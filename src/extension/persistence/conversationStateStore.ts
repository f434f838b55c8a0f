// What the extension remembers about each conversation across reloads: the compactions applied
// to it (the undo stack), each with the compacted view it produced and the archive key of what
// it replaced. The transcript file itself is never touched; this state is the compacted view.

import { join } from 'node:path';
import type { Conversation } from '../../engine/conversation/model';
import { hash64 } from '../../engine/text/hash';
import { writeFileAtomic } from '../../files/atomicWrite';
import { readTextIfExists } from '../../files/readTextIfExists';

export const STATE_VERSION = 1;

export type StepKind = 'compaction' | 'dropOldest';

/** One applied change, newest last in PersistedConversationState.steps. */
export interface PersistedStep {
  kind: StepKind;
  /** Archive key of the conversation as it was before this step (undo reads it back). */
  archiveId: string;
  /** How many messages of the source (the imported transcript, or the chat history) the step
   *  covered; messages the source gained later are appended to the compacted view. */
  sourceLength: number;
  /** Id of the source message at sourceLength − 1: if the source no longer has it there, the
   *  source was rewritten and this state no longer applies. */
  sourceLastId: string;
  /** The conversation after this step. */
  conversation: Conversation;
  tokensBefore: number;
  tokensAfter: number;
  strategy: string;
  summarizer: string;
  level: string;
  /** ISO time of the step. */
  at: string;
}

export interface PersistedConversationState {
  version: number;
  key: string;
  label: string;
  kind: 'transcript' | 'chat';
  steps: PersistedStep[];
}

function isState(v: unknown): v is PersistedConversationState {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as PersistedConversationState;
  return s.version === STATE_VERSION && typeof s.key === 'string' && Array.isArray(s.steps);
}

export class ConversationStateStore {
  constructor(
    readonly dir: string,
    private readonly onCorrupt: (path: string, reason: string) => void = () => undefined,
  ) {}

  pathOf(key: string): string {
    return join(this.dir, `${hash64(key)}.json`);
  }

  async load(key: string): Promise<PersistedConversationState | undefined> {
    const path = this.pathOf(key);
    const text = await readTextIfExists(path);
    if (text === undefined) return undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isState(parsed) && parsed.key === key) return parsed;
      this.onCorrupt(path, 'not a conversation state of this version and key');
    } catch (err) {
      this.onCorrupt(path, (err as Error).message);
    }
    return undefined;
  }

  async save(state: PersistedConversationState): Promise<void> {
    await writeFileAtomic(this.pathOf(state.key), JSON.stringify(state));
  }
}
