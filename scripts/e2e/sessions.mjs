// The agent sessions steps of the end-to-end test: a temporary HOME holds a real Claude Code
// session of the workspace folder (the shared kiliman transcript, placed as scripts/agents does),
// and code-server runs with that HOME and with the real, pinned Claude Code pointed at a fake model
// server of this process. With no file opened, the meter shows the session and follows an append
// to it; the Sessions view lists it; Compact… writes a new session under it, and "Resume in
// Terminal" runs the real `claude --resume <id>` in a VS Code terminal, where a prompt is typed:
// the request Claude Code then sends (read from the fake server's log) carries the summary and the
// recent turns, not the summarized ones.
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startFakeModel } from '../agents/fakeModel.mjs';
import { claudeServerEnv, earlyToolText, includes, placeSession, SECTIONS, seedClaudeConfig, SUMMARY_OPENING } from '../agents/sessionFixtures.mjs';
import { ensureAgents } from '../agents/tools.mjs';
import { findTranscriptsDir } from '../transcripts.mjs';
import { ctxcJson, numberField } from './ctxc.mjs';
import {
  answerModal,
  clearNotifications,
  E2eError,
  readModal,
  runCommand,
  UI_TIMEOUT_MS,
  waitForMeter,
  waitForNotification,
  waitUntil,
  WORK_TIMEOUT_MS,
} from './page.mjs';
import { repoRoot } from './tools.mjs';

/** The shared session the temporary HOME holds (1.2 MB, ~41k tokens). */
const SHARED_SESSION = 'claude-code/kiliman__claude-transcript__test2.jsonl';
/** What the fake model answers every request with, and what is typed into the resumed session. */
const REPLY = 'RESUMED-OK: continuing from the summary of the earlier conversation.';
const PROMPT = 'E2E-RESUME: carry on from where the session stopped';
/** A turn appended to the session while the meter follows it. */
const APPENDED = {
  user: 'E2E-APPENDED: also check the exporter handles empty sessions',
  answer: 'E2E-APPENDED-ANSWER: the exporter now returns an empty list for an empty session.',
};
/** Claude Code needs a few seconds to start; its first frame shows its name. */
const CLAUDE_START_TIMEOUT_MS = 60_000;
const VIEW_FOCUS = { id: 'contextCompactor.sessions.focus', title: 'Context Compactor: Focus on Sessions View' };
/** The side bar's width for the Sessions view's pictures: a title and the numbers after it. */
const SIDE_BAR_WIDTH = 760;

/** A temporary HOME with the session, the pinned Claude Code, and the fake model server. */
export async function prepareSessions({ sandbox, step, artifacts }) {
  const agents = await step('install the pinned Claude Code (scripts/agents; cached in .cache/agents)', () => ensureAgents());
  const server = await step('start the fake model server on 127.0.0.1 (scripts/agents/fakeModel.mjs)', () =>
    startFakeModel({ reply: () => ({ text: REPLY }), logFile: join(artifacts, 'model-requests.jsonl') }),
  );
  const home = join(sandbox.root, 'home');
  mkdirSync(home, { recursive: true });
  const session = await step('place a real Claude Code session of the workspace folder in a temporary HOME', () => {
    const id = randomUUID();
    const placed = placeSession(home, join(findTranscriptsDir(repoRoot), SHARED_SESSION), id, sandbox.workspace);
    seedClaudeConfig(home, sandbox.workspace);
    console.log(`[e2e]   ${placed.file} (${SHARED_SESSION}, ${placed.dropped} trailing lines left out)`);
    return { id, file: placed.file, gone: earlyToolText(placed.text) };
  });
  const path = `${dirname(agents.claude)}:${process.env.PATH}`;
  // Where Claude Code's own installer puts it, on the PATH of the person's login shell: VS Code's
  // extension host takes its environment from that shell, and Resume in Terminal looks there.
  mkdirSync(join(home, '.local', 'bin'), { recursive: true });
  symlinkSync(agents.claude, join(home, '.local', 'bin', 'claude'));
  writeFileSync(join(home, '.profile'), 'PATH="$HOME/.local/bin:$PATH"\n');
  const env = { HOME: home, ...claudeServerEnv(server.url), PATH: path };
  // The terminal: a plain bash that reads no profile (a login shell's /etc/profile resets PATH),
  // with the pinned Claude Code first on its PATH.
  const settingsFile = join(sandbox.userData, 'User', 'settings.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  settings['terminal.integrated.profiles.linux'] = { 'e2e-bash': { path: '/bin/bash', args: ['--noprofile', '--norc'], env: { PATH: path } } };
  settings['terminal.integrated.defaultProfile.linux'] = 'e2e-bash';
  settings['terminal.integrated.shellIntegration.enabled'] = false;
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  const listed = await step('the session as `ctxc sessions` lists it, and its `ctxc count`', () => {
    const list = ctxcJson(['sessions', '--cwd', sandbox.workspace, '--json'], { ...process.env, ...env });
    const entry = list.find((s) => s.id === session.id);
    if (!entry || list.length !== 1) {
      throw new E2eError('ctxc sessions does not list the placed session alone', {
        expected: `one session ${session.id}`,
        seen: JSON.stringify(list.map((s) => s.id)),
      });
    }
    const total = numberField(ctxcJson(['count', session.file, '--json']), 'total', `ctxc count ${session.file} --json`);
    console.log(`[e2e]   "${entry.title}": ${total} tokens (ctxc sessions: ${entry.tokens})`);
    return { title: entry.title, total };
  });
  return { env, server, home, artifacts, session: { ...session, ...listed }, close: () => server.close() };
}

/** A user turn and its answer for a Claude Code session, chained to its last line (JSONL). */
function turnLines(file) {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const last = JSON.parse(lines.at(-1));
  const base = { isSidechain: false, userType: 'external', cwd: last.cwd, sessionId: last.sessionId, version: last.version };
  const user = {
    parentUuid: last.uuid,
    ...base,
    type: 'user',
    message: { role: 'user', content: APPENDED.user },
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
  };
  const assistant = {
    parentUuid: user.uuid,
    ...base,
    type: 'assistant',
    message: {
      id: 'msg_e2e_appended',
      type: 'message',
      role: 'assistant',
      model: last.message?.model ?? 'claude-sonnet-4-5',
      content: [{ type: 'text', text: APPENDED.answer }],
      stop_reason: 'end_turn',
    },
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}

/** Drags the sash at the right edge of the primary side bar until it is about `width` pixels wide;
 *  returns the width it had. */
async function resizeSideBar(page, width) {
  const part = page.locator('.part.sidebar');
  const box = await part.boundingBox();
  if (!box) throw new E2eError('the side bar is not visible', { expected: '.part.sidebar', seen: 'no box' });
  const x = box.x + box.width + 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + (width - box.width), y, { steps: 8 });
  await page.mouse.up();
  await waitUntil(
    async () => (await part.boundingBox())?.width ?? 0,
    (w) => Math.abs(w - width) <= 8,
    { expected: `the side bar about ${width}px wide`, describe: (w) => `${Math.round(w)}px wide` },
  );
  return box.width;
}

/** Waits until no progress notification ("Estimating…", "Compacting…") is left on screen. */
async function waitForProgressGone(page) {
  await waitUntil(
    () =>
      page
        .locator(
          '.notifications-toasts .notification-toast .monaco-progress-container.active, .notifications-toasts .notification-toast:has-text("Compacting ")',
        )
        .count(),
    (n) => n === 0,
    { expected: 'the progress notifications to close', describe: (n) => `${n} left` },
  );
}

/** Rows of the Sessions view for Claude Code sessions (their aria-label starts with the agent). */
function sessionRows(page) {
  return page.locator('.monaco-list-row[aria-label^="Claude Code: "]');
}

/** The text the terminal shows (its DOM renderer: terminal.integrated.gpuAcceleration off). */
async function terminalText(page) {
  return page
    .locator('.terminal-wrapper.active .xterm-rows, .terminal-wrapper .xterm-rows')
    .evaluateAll((rows) => rows.map((r) => r.textContent || '').join('\n'))
    .catch(() => '');
}

async function waitForTerminal(page, accept, expected) {
  return waitUntil(() => terminalText(page), accept, {
    expected,
    timeoutMs: CLAUDE_START_TIMEOUT_MS,
    describe: (t) => `terminal text: ${JSON.stringify((t || '').replace(/\s+/g, ' ').slice(-400))}`,
  });
}

export async function sessionSteps({ page, step, shots, prepared }) {
  const { session, server } = prepared;
  let sideBarWidth;

  await step('with no file open, the meter shows the live Claude Code session with its `ctxc count`', async () => {
    const m = await waitForMeter(page, (x) => x.total === session.total, { expected: `the session's ctxc count, total ${session.total}` });
    const tabs = await page.locator('.tabs-container .tab').count();
    if (tabs !== 0) throw new E2eError('an editor is open', { expected: 'no editor tab', seen: `${tabs} tab(s)` });
    await shots.shot(page, 'live-session-meter');
    console.log(`[e2e]   meter: ${m.label} ("${m.text}")`);
  });

  const appended = await step('the meter follows a turn appended to the session', async () => {
    // The count the meter must reach, from a copy outside the agent's folders (unwatched).
    const turn = turnLines(session.file);
    const copy = join(prepared.artifacts, 'appended-session.jsonl');
    writeFileSync(copy, `${readFileSync(session.file, 'utf8')}${turn}`);
    const total = numberField(ctxcJson(['count', copy, '--json']), 'total', `ctxc count ${copy} --json`);
    appendFileSync(session.file, turn);
    const t0 = Date.now();
    const m = await waitForMeter(page, (x) => x.total === total, { expected: `the appended session's ctxc count, total ${total}` });
    // A figure for the report, not an assertion: the machine is shared and noisy.
    console.log(`[e2e]   meter: ${session.total} → ${m.total} tokens, seen ${Date.now() - t0} ms after the append (the page is read every 100 ms)`);
    return { total, bytes: readFileSync(session.file) };
  });

  const expected = await step('expected compaction of the session from the CLI (ctxc compact --format json)', () => {
    // As the confirmation shows them: what the agent will send, the overhead the session's reported
    // usage shows (Claude Code's system prompt and tools, which compaction keeps) included.
    const r = ctxcJson(['compact', session.file, '--format', 'json']);
    const before = numberField(r, 'tokensBefore', 'ctxc compact --format json');
    const after = numberField(r, 'tokensAfter', 'ctxc compact --format json');
    console.log(`[e2e]   ${before} → ${after} tokens`);
    return { before, after };
  });

  await step('the Sessions view lists the session under Claude Code, with its title and numbers', async () => {
    await runCommand(page, VIEW_FOCUS.title, { id: VIEW_FOCUS.id });
    // Wide enough for a title and the numbers after it.
    sideBarWidth = await resizeSideBar(page, SIDE_BAR_WIDTH);
    const row = sessionRows(page).first();
    await row.waitFor({ state: 'visible', timeout: WORK_TIMEOUT_MS });
    const label = await row.getAttribute('aria-label');
    if (!label.startsWith(`Claude Code: ${session.title}`) || !/ \/ 200k · \d+% · /.test(label)) {
      throw new E2eError('the Sessions view does not show the session as listed', {
        expected: `a row "Claude Code: ${session.title}, <tokens> / 200k · <percent>% · <when>"`,
        seen: JSON.stringify(label),
      });
    }
    await shots.shot(page, 'sessions-view');
    console.log(`[e2e]   row: ${label}`);
  });

  await step('Compact… on the row asks first, with before → after from the CLI', async () => {
    const row = sessionRows(page).first();
    await row.click();
    await row.hover();
    await row.locator('.actions .action-label[aria-label="Compact…"]').first().click();
    const shown = await readModal(page);
    const arrow = `${expected.before.toLocaleString('en')} → ${expected.after.toLocaleString('en')}`;
    if (!shown.message.includes(arrow) || !shown.detail.includes('Compact writes a new Claude Code session') || !shown.buttons.includes('Compact')) {
      throw new E2eError('the confirmation does not say what Compact does to an agent session', {
        expected: `"${arrow}", "Compact writes a new Claude Code session…" and a Compact button`,
        seen: `"${shown.message}" / "${shown.detail}" with ${JSON.stringify(shown.buttons)}`,
      });
    }
    await shots.shot(page, 'session-confirmation');
  });

  const written = await step('Compact writes a new session under the original, which stays byte for byte as it was', async () => {
    await answerModal(page, 'Compact');
    await waitForNotification(page, 'Compacted into a new Claude Code session');
    const dir = dirname(session.file);
    const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl') && f !== `${session.id}.jsonl`);
    if (files.length !== 1)
      throw new E2eError('Compact did not write one new session file', { expected: `one new .jsonl in ${dir}`, seen: JSON.stringify(readdirSync(dir)) });
    if (!readFileSync(session.file).equals(appended.bytes))
      throw new E2eError('the original session file changed', { expected: 'the same bytes', seen: 'different bytes' });
    await waitUntil(
      () => sessionRows(page).count(),
      (n) => n === 2,
      { expected: 'two Claude Code rows: the session and the compacted one under it', timeoutMs: WORK_TIMEOUT_MS },
    );
    await waitForProgressGone(page);
    await shots.shot(page, 'session-compacted', { readme: 'sessions' });
    const id = files[0].replace(/\.jsonl$/, '');
    console.log(`[e2e]   new session ${id}`);
    return { id, file: join(dir, files[0]) };
  });

  await step(
    'Resume in Terminal runs the real `claude --resume <new id>`; a prompt typed there is sent with the summary, not the summarized turns',
    async () => {
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Compacted into a new Claude Code session' }).first();
      await toast.locator('.monaco-button', { hasText: 'Resume in Terminal' }).first().click();
      await waitForTerminal(page, (t) => t.includes(`claude --resume ${written.id}`), `the terminal to run claude --resume ${written.id}`);
      // Resumed: it shows the session's last turn (kept verbatim) and waits at its prompt.
      await waitForTerminal(page, (t) => t.includes(APPENDED.answer.slice(0, 40)) && t.includes('❯'), 'Claude Code to show the resumed session and its prompt');
      const n0 = server.requests.length;
      await page.locator('.terminal-wrapper .xterm').first().click();
      await page.keyboard.type(PROMPT, { delay: 20 });
      await page.keyboard.press('Enter');
      const request = await waitUntil(
        () => server.requests.slice(n0).find((r) => r.url.startsWith('/v1/messages') && r.raw.includes(PROMPT)),
        (r) => r !== undefined,
        {
          expected: `a request to the fake model server carrying "${PROMPT}"`,
          timeoutMs: CLAUDE_START_TIMEOUT_MS,
          describe: () => `${server.requests.length - n0} request(s) since the prompt`,
        },
      );
      const missing = [SUMMARY_OPENING, ...SECTIONS.map((s) => `## ${s}`), APPENDED.user, APPENDED.answer].filter((t) => !includes(request.raw, t));
      if (missing.length || includes(request.raw, session.gone)) {
        throw new E2eError('the resumed request is not the compacted session', {
          expected: `the summary (${SECTIONS.length} sections) and the recent turns, without the early tool output ${JSON.stringify(session.gone)}`,
          seen: missing.length ? `missing ${JSON.stringify(missing)}` : 'the early tool output is still sent',
        });
      }
      const body = join(prepared.artifacts, 'resumed-request.json');
      writeFileSync(body, JSON.stringify(request.body, null, 2));
      const tokens = numberField(ctxcJson(['count', body, '--json']), 'total', 'ctxc count resumed-request.json');
      console.log(
        `[e2e]   the real Claude Code sent ${request.bytes} bytes, ${tokens} tokens by our counter (the session held ${appended.total}); ${request.body.messages.length} messages`,
      );
      await waitForTerminal(page, (t) => t.includes('RESUMED-OK'), 'the reply in the terminal');
      await shots.shot(page, 'session-resumed', { readme: 'resume' });
    },
  );

  await step('close the terminal and go back to the Explorer', async () => {
    await runCommand(page, 'Terminal: Kill the Active Terminal Instance', { id: 'workbench.action.terminal.kill' });
    await page.locator('.terminal-wrapper .xterm').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
    // The panel closes with its last terminal; if it stayed, hide it.
    if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility', { id: 'workbench.action.togglePanel' });
    await runCommand(page, 'View: Show Explorer', { id: 'workbench.view.explorer' });
    await resizeSideBar(page, sideBarWidth);
    await clearNotifications(page);
  });

  await step('Undo Last Compaction goes back to the original session (never changed) and moves the written one to the trash', async () => {
    await runCommand(page, 'Context Compactor: Undo Last Compaction', { id: 'contextCompactor.undo' });
    const shown = await readModal(page);
    if (!shown.message.includes('Undo the compaction of') || !shown.buttons.includes('Undo and Move to Trash')) {
      throw new E2eError('Undo does not ask about the compaction written into Claude Code', {
        expected: '"Undo the compaction of …?" with Undo and Move to Trash',
        seen: `"${shown.message}" with ${JSON.stringify(shown.buttons)}`,
      });
    }
    await answerModal(page, 'Undo and Move to Trash');
    await waitForNotification(page, 'Undone: the meter follows');
    await waitForMeter(page, (x) => x.total === appended.total, { expected: `the original session's count again, total ${appended.total}` });
    if (existsSync(written.file)) throw new E2eError('the written session is still in its folder', { expected: 'moved to the trash', seen: written.file });
    if (!readFileSync(session.file).equals(appended.bytes))
      throw new E2eError('the original session file changed', { expected: 'the same bytes', seen: 'different bytes' });
    await clearNotifications(page);
  });
}
