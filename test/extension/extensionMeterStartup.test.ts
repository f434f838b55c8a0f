// The meter at start-up, in the host against the vscode fake, with the shared kiliman Claude Code
// session as this workspace's live session: it shows at once what is known — the tokens of the
// session's last request, one line read from the end of its file — while the sessions are found
// and counted in the background (the Sessions view shows progress), then the full count. After a
// reload it starts from the session it followed last, before anything is listed.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { conversationReport } from '../../src/engine/tokens/report';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/extension/engineModules';
import type { MeterGlance } from '../../src/extension/meter/meterFocus';
import { placeSession } from '../../scripts/agents/sessionFixtures.mjs';
import { activateHost, HOST_SETTLES, newProfile, type ActivatedHost } from '../fakes/extensionHost';
import { fake, resetFake } from '../fakes/vscode';
import { meter, meterTotal, setupSessionsWorld, teardownSessionsWorld, VIEW, type SessionsWorld } from '../helpers/sessionsHost';
import { transcriptPath } from '../helpers/transcripts';

/** What kiliman's last request recorded (the API's count the meter builds on). */
const LAST_REQUEST = 69_800;

/** The session's total as `ctxc count` gives it: the reported usage plus what came after it. */
async function countOf(path: string): Promise<number> {
  const { conversation } = importTranscript(readFileSync(path, 'utf8'), { sourcePath: path });
  return conversationReport(conversation, await createTokenCounter(conversation.meta.model)).total;
}

let w: SessionsWorld;
let host: ActivatedHost | undefined;
let file: string;

beforeEach(() => {
  w = setupSessionsWorld();
  file = placeSession(w.home, transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl'), randomUUID(), w.work).file;
});

afterEach(() => {
  host?.deactivate();
  host = undefined;
  teardownSessionsWorld();
});

/** Activates the host and records what the meter showed at a glance, in order. */
function activate(profile = newProfile()): { glances: MeterGlance[]; labels: string[] } {
  host = activateHost(createEngine(), profile);
  const glances: MeterGlance[] = [];
  const labels: string[] = [];
  host.api.focus.onDidChangeGlance((g) => {
    if (!g) return;
    glances.push(g);
    labels.push(meter().accessibilityInformation!.label);
  });
  return { glances, labels };
}

describe('the meter at start-up', () => {
  it('shows the live session at once from its last recorded request, then its full count; the Sessions view shows progress meanwhile', async () => {
    const full = await countOf(file);
    const { glances, labels } = activate();
    await vi.waitFor(() => expect(meterTotal()).toBe(full), HOST_SETTLES);
    expect(glances).toHaveLength(1);
    expect(glances[0]).toMatchObject({ file, tokens: LAST_REQUEST, window: 200_000, source: 'Claude Code' });
    expect(glances[0]!.label).toMatch(/^Claude Code: yes, in a previous session we remove/);
    expect(labels[0]).toBe(`Context Compactor: ${LAST_REQUEST} / 200000 tokens (34.9%) — ${glances[0]!.label}`);
    // Found and counted under a progress indicator in the Sessions view, ended once listed.
    const listing = fake.state.progress.filter((p) => typeof p.location === 'object' && p.location.viewId === VIEW);
    expect(listing.length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(listing.every((p) => p.endedAt !== undefined)).toBe(true), HOST_SETTLES);
    // The glance has done its work: the counted conversation shows.
    expect(host!.api.focus.glance).toBeUndefined();
    expect(meter().accessibilityInformation!.label).toBe(
      `Context Compactor: ${full} / 200000 tokens (${((full / 200_000) * 100).toFixed(1)}%) — ${glances[0]!.label}`,
    );
  });

  it('after a reload, the session followed last shows before anything is listed', async () => {
    const profile = newProfile();
    const full = await countOf(file);
    activate(profile);
    await vi.waitFor(() => expect(meterTotal()).toBe(full), HOST_SETTLES);
    const label = host!.api.store.active()!.label;
    host!.deactivate();
    resetFake();
    fake.setWorkspaceRoot(w.work);
    const { glances } = activate(profile);
    // Shown from what the workspace remembered, under the label it had.
    expect(glances).toEqual([]);
    await vi.waitFor(() => expect(glances).toHaveLength(1), HOST_SETTLES);
    expect(glances[0]).toMatchObject({ file, label, tokens: LAST_REQUEST });
    await vi.waitFor(() => expect(meterTotal()).toBe(full), HOST_SETTLES);
  });

  it('with following off, nothing is glanced at', async () => {
    fake.setConfig('contextCompactor.follow', 'off');
    const { glances } = activate();
    await fake.command('contextCompactor.sessions.refresh')!();
    expect(glances).toEqual([]);
    expect(meter().visible).toBe(false);
  });
});
