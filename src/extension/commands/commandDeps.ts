// What command handlers work with. Passed explicitly so each handler can be tested with the
// real store and engine against the vscode fake.

import type { CompactionEngine } from '../compactionEngine';
import type { ConversationStore } from '../conversationStore';
import type { Logger } from '../log';
import type { MeterFocus } from '../meter/meterFocus';
import type { ApiKeyStore } from '../secrets';
import type { SettingsStore } from '../settings';
import type { SummarizerFactory } from '../summarizers/summarizerFactory';
import type { TranscriptTracker } from '../transcripts/transcriptTracker';

/** Opens the inspector for a conversation (src/extension/inspector implements it). */
export interface InspectorLauncher {
  /** `reveal`: a part to bring into view (the context chart). */
  show(conversationKey: string, reveal?: 'chart'): Promise<void> | void;
}

export interface CommandDeps {
  store: ConversationStore;
  engine: CompactionEngine;
  settings: SettingsStore;
  log: Logger;
  tracker: TranscriptTracker;
  summarizers: SummarizerFactory;
  secrets: ApiKeyStore;
  inspector: InspectorLauncher;
  /** What the meter shows: every change of the active conversation asks here. */
  focus: MeterFocus;
}
