// The step stack of a conversation: each applied change (a compaction, the drop-oldest
// alternative) is one step with the archive key of what it replaced. Steps are persisted first
// and changed in memory only when that worked, so a failed write changes nothing; they survive
// a reload, and undo pops one at a time. Every change goes through pushStep.

import type { ArchiveStore } from '../../engine/archive/archiveStore';
import type { Conversation } from '../../engine/conversation/model';
import type { CompactionEngine } from '../compactionEngine';
import type { Logger } from '../log';
import { STATE_VERSION, type ConversationStateStore, type PersistedStep } from '../persistence/conversationStateStore';
import type { ConversationEntry } from './conversationEntry';

/** What a step records besides where it sits in the source and when it happened. */
export type StepChange = Omit<PersistedStep, 'sourceLength' | 'sourceLastId' | 'at'>;

export interface StepsDependencies {
  engine: CompactionEngine;
  archive: ArchiveStore;
  states: ConversationStateStore;
  log: Logger;
  /** ISO time of a step. */
  now: () => string;
}

type StepOwner = Pick<ConversationEntry, 'key' | 'label' | 'kind' | 'source' | 'steps'>;

/** The step's conversation with what the source gained after the step appended. */
function withSourceTail(view: Conversation, source: Conversation, sourceLength: number): Conversation {
  const tail = source.messages.slice(sourceLength);
  return tail.length > 0 ? { ...view, messages: [...view.messages, ...tail] } : view;
}

export class CompactionSteps {
  constructor(private readonly deps: StepsDependencies) {}

  /** Records a change: persisted first, then on the stack. Returns the new view. */
  async pushStep(e: StepOwner, change: StepChange): Promise<Conversation> {
    const step: PersistedStep = {
      ...change,
      sourceLength: e.source.messages.length,
      sourceLastId: e.source.messages.at(-1)?.id ?? '',
      at: this.deps.now(),
    };
    await this.persist(e, [...e.steps, step]);
    e.steps.push(step);
    return step.conversation;
  }

  /** Undoes the last step: the view it replaced (with the source's later messages), or
   *  undefined when there is nothing to undo. */
  async popStep(e: StepOwner): Promise<{ step: PersistedStep; view: Conversation } | undefined> {
    const step = e.steps.at(-1);
    if (!step) return undefined;
    const before = await this.restoreBefore(step);
    const steps = e.steps.slice(0, -1);
    await this.persist(e, steps);
    e.steps = steps;
    return { step, view: withSourceTail(before, e.source, step.sourceLength) };
  }

  /** The steps saved for `key` in an earlier session (none when there are none). */
  async load(key: string): Promise<PersistedStep[]> {
    const saved = await this.deps.states.load(key);
    return saved?.steps ?? [];
  }

  /** The current view from the source and the steps. When the source no longer starts with
   *  what the last step covered (rewritten, truncated), its steps no longer apply: they are
   *  dropped (the archive keeps every original) and `reset` says so. */
  async viewOf(e: StepOwner): Promise<{ view: Conversation; reset: boolean }> {
    const last = e.steps.at(-1);
    if (!last) return { view: e.source, reset: false };
    const anchor = e.source.messages[last.sourceLength - 1];
    if (e.source.messages.length < last.sourceLength || (last.sourceLength > 0 && anchor?.id !== last.sourceLastId)) {
      this.deps.log.warn(`${e.label} changed under its compacted view; showing the source as it is now`);
      await this.persist(e, []);
      e.steps = [];
      return { view: e.source, reset: true };
    }
    return { view: withSourceTail(last.conversation, e.source, last.sourceLength), reset: false };
  }

  private async restoreBefore(step: PersistedStep): Promise<Conversation> {
    if (step.kind === 'compaction') return this.deps.engine.undo(step.archiveId, this.deps.archive);
    const text = await this.deps.archive.get(step.archiveId);
    if (text === undefined) throw new Error(`the archive has no entry '${step.archiveId}': cannot undo`);
    return JSON.parse(text) as Conversation;
  }

  private async persist(e: StepOwner, steps: PersistedStep[]): Promise<void> {
    await this.deps.states.save({ version: STATE_VERSION, key: e.key, label: e.label, kind: e.kind, steps });
  }
}
