// Activates the real extension entry point against the vscode fake, with storage in a temp
// directory that can be handed to a second activation (a "reload").

import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, vi } from 'vitest';
import type * as vscode from 'vscode';
import { activate, type ContextCompactorApi } from '../../src/extension';
import type { CompactionEngine } from '../../src/extension/compactionEngine';
import { transcriptPath } from '../helpers/transcripts';
import { createProfile, createExtensionContext, disposeContext, fake, type FakeExtensionContext, type FakeProfile } from './vscode';

export interface ActivatedHost {
  context: FakeExtensionContext;
  api: ContextCompactorApi;
  profile: FakeProfile;
  deactivate(): void;
}

/** Options for `vi.waitFor` on the activated host, which reacts to events on its own schedule:
 *  the test waits for a condition, not for time, and the deadline only turns a hang into a
 *  failure (generous, for a busy machine). */
export const HOST_SETTLES = { timeout: 30_000, interval: 10 };

export function newProfile(): FakeProfile {
  return createProfile(mkdtempSync(join(tmpdir(), 'ctxc-host-')));
}

export function activateHost(engine?: CompactionEngine, profile: FakeProfile = newProfile()): ActivatedHost {
  const context = createExtensionContext(profile);
  const api = activate(context as unknown as vscode.ExtensionContext, engine);
  return { context, api, profile, deactivate: () => disposeContext(context) };
}

/** The host activated on a workspace holding a copy of one shared transcript (`rel`, as under
 *  ../shared/transcripts), opened with Open Transcript… as a user would: resolves when the
 *  extension has it as the active conversation. Call resetFake() first. */
export async function hostWithSharedTranscript(rel: string): Promise<ActivatedHost> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxc-workspace-'));
  copyFileSync(transcriptPath(rel), join(dir, basename(rel)));
  fake.setWorkspaceRoot(dir);
  const host = activateHost();
  fake.answers.quickPick.push((items) => items.find((i) => i.label === basename(rel)));
  await fake.command('contextCompactor.openTranscript')!();
  await vi.waitFor(() => expect(host.api.store.active(), `the transcript ${rel}`).toBeDefined(), HOST_SETTLES);
  return host;
}
