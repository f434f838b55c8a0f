// The end-to-end scenario for the packaged Context Compactor extension, written against the UI
// contract (commands, meter label, confirmation dialog, inspector, Sessions view) rather than its
// internals. The numbers the UI must show come from the CLI built from the same sources
// (`ctxc count`, `ctxc compact`, `ctxc sessions`), so the test checks that the editor and the
// command line agree. The agent sessions steps (sessions.mjs) run first, before any file is open.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  E2eError,
  answerModal,
  clearNotifications,
  hoverStatusBarItem,
  quickPick,
  readModal,
  runCommand,
  UI_TIMEOUT_MS,
  waitForActiveTab,
  waitForMeter,
  waitForNotification,
  webviewFrame,
} from './page.mjs';
import { CHAT_MODEL, buildChatModelVsix } from './chatModel.mjs';
import { groupedInt, openChat, sendChat, waitForChatModel, widenChat } from './chatView.mjs';
import { repoRoot } from './tools.mjs';
import { SECTIONS } from '../agents/sessionFixtures.mjs';
import { findTranscriptsDir } from '../transcripts.mjs';
import { ctxcJson, numberField } from './ctxc.mjs';
import { prepareSessions, sessionSteps } from './sessions.mjs';
import { checkInspectorContext } from './inspectorContext.mjs';

const CATEGORY = 'Context Compactor';
const COMMANDS = {
  openTranscript: { id: 'contextCompactor.openTranscript', title: `${CATEGORY}: Open Transcript…` },
  compact: { id: 'contextCompactor.compact', title: `${CATEGORY}: Compact Conversation` },
  undo: { id: 'contextCompactor.undo', title: `${CATEGORY}: Undo Last Compaction` },
  inspect: { id: 'contextCompactor.inspect', title: `${CATEGORY}: Inspect Conversation` },
};
const OPEN_TRANSCRIPT_PICK_TITLE = 'Open Transcript';
const INSPECTOR_TITLE = 'Context Compactor: Inspector';
const CONFIRM_BUTTON = 'Compact';
const INSPECT_FIRST_BUTTON = 'Inspect First…';
const CANCEL_BUTTON = 'Cancel';
const NOTHING_TO_UNDO = 'Nothing to undo';
/** The meter picture for the README: the status bar's right end and the hover above it. */
const README_CLIP = { width: 760, height: 500 };
/**
 * What the chat steps tell @compactor before asking for /usage and /compact. The test model
 * answers each with one line per word (scripts/e2e/chatModel.mjs): four long rounds to
 * summarize, then two short ones that stay verbatim (keepRecentRounds defaults to 2).
 */
const CHAT_PROMPTS = [
  'plan the parser refactor for the config loader in small steps',
  'list the edge cases for empty files, missing keys and duplicate sections',
  'write the migration notes for the settings schema and the old defaults',
  'draft the test plan for the loader and its error messages',
  'summarize the risks',
  'what is next',
];
/** Wide enough for the replies' tables to read well in the README picture. */
const CHAT_WIDTH = 600;

/**
 * The transcripts copied into the workspace, relative to the shared transcripts folder: a small
 * OpenHands run and an aider history (opened, counted), and a mid-size Claude Code session
 * (1.2 MB, 268 messages: ~41k tokens counted, ~70k as its last request reported; big enough that
 * compaction has something to do). They keep their folder in the workspace, so the Quick Pick
 * shows it as the item's description.
 */
export const TRANSCRIPTS = {
  small: 'openhands/basic_gui_mode.json',
  aider: 'aider/AFI-Protocol__afi-core.aider.chat.history.md',
  compacted: 'claude-code/kiliman__claude-transcript__test2.jsonl',
};

/** The shared transcripts (scripts/transcripts.mjs). */
export function transcriptsDir() {
  return findTranscriptsDir(repoRoot);
}

function extensionIdOf(pkg) {
  return `${pkg.publisher}.${pkg.name}`;
}

export const compactorScenario = {
  name: 'context-compactor',
  extensionId: extensionIdOf(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))),

  async prepare({ sandbox, step, options, artifacts }) {
    const vsix = join(repoRoot, 'dist', 'context-compactor.vsix');
    if (options.skipPackage) {
      if (!existsSync(vsix)) throw new Error(`--no-package given but ${vsix} does not exist; run npm run package`);
    } else {
      await step('package the extension (npm run package)', () => {
        const r = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000 });
        if (r.status !== 0) {
          const out = `${r.stdout || ''}${r.stderr || ''}`.trim().split('\n').slice(-30).join('\n');
          throw new E2eError('npm run package failed', { expected: 'exit 0 and dist/context-compactor.vsix', seen: `exit ${r.status}:\n${out}` });
        }
        if (!existsSync(vsix)) throw new E2eError('npm run package made no .vsix', { expected: vsix, seen: 'no such file' });
      });
    }

    const files = await step('copy real transcripts into the workspace', () => {
      const source = transcriptsDir();
      const out = {};
      for (const [key, rel] of Object.entries(TRANSCRIPTS)) {
        const target = join(sandbox.workspace, rel);
        mkdirSync(dirname(target), { recursive: true });
        // The Claude Code session as it is: it ends with local commands chained to its first line,
        // which the importer sets aside (the meter reads it through its last request, as ctxc does).
        copyFileSync(join(source, rel), target);
        out[key] = { rel, path: target, name: basename(rel), folder: dirname(rel) };
      }
      return out;
    });

    const expected = await step('expected counts from the CLI (ctxc count --json)', () => {
      const count = (f) => numberField(ctxcJson(['count', f.path, '--json']), 'total', `ctxc count ${f.rel} --json`);
      const small = count(files.small);
      const before = count(files.compacted);
      console.log(`[e2e]   ${files.small.rel}: ${small} tokens`);
      console.log(`[e2e]   ${files.compacted.rel}: ${before} tokens`);
      return { small, before };
    });
    const chatModelVsix = await step('build the test-only chat model extension (scripts/e2e/chatModel.mjs, never shipped)', () =>
      buildChatModelVsix(join(sandbox.root, 'e2e-chat-model')),
    );
    const sessions = await prepareSessions({ sandbox, step, artifacts });
    return {
      vsix,
      files,
      expected,
      extraVsix: [{ label: 'the test-only chat model extension', vsix: chatModelVsix }],
      sessions,
      // code-server (so its extension host and terminals) runs with the temporary HOME and the
      // real Claude Code pointed at the fake model server.
      env: sessions.env,
      close: sessions.close,
    };
  },

  async run({ page, step, shots, prepared }) {
    const { files, expected } = prepared;
    const meterIs = (total, what) => waitForMeter(page, (m) => m.total === total, { expected: `${what}: total ${total} tokens` });

    // Before any file is opened: the live Claude Code session of the temporary HOME.
    await sessionSteps({ page, step, shots, prepared: prepared.sessions });

    await step('Open Transcript… lists the workspace transcripts and Browse…; the small one opens with the CLI count', async () => {
      await runCommand(page, COMMANDS.openTranscript.title, { id: COMMANDS.openTranscript.id });
      const listed = await quickPick(page, files.small.name, { title: OPEN_TRANSCRIPT_PICK_TITLE });
      const missing = Object.values(files).filter((f) => !listed.some((l) => l && l.startsWith(f.name)));
      if (missing.length || listed.at(-1) !== 'Browse…') {
        throw new E2eError('the Open Transcript Quick Pick does not list what the contract says', {
          expected: `items for ${Object.values(files)
            .map((f) => f.name)
            .join(', ')} and a last item "Browse…"`,
          seen: JSON.stringify(listed),
        });
      }
      await waitForActiveTab(page, files.small.name);
      const m = await meterIs(expected.small, `ctxc count for ${files.small.rel}`);
      await shots.shot(page, 'open-small-transcript');
      console.log(`[e2e]   meter: ${m.label} ("${m.text}")`);
    });

    const original = await step('opening the Claude Code session shows its CLI count', async () => {
      await runCommand(page, COMMANDS.openTranscript.title, { id: COMMANDS.openTranscript.id });
      await quickPick(page, files.compacted.name, { title: OPEN_TRANSCRIPT_PICK_TITLE });
      await waitForActiveTab(page, files.compacted.name);
      const m = await meterIs(expected.before, `ctxc count for ${files.compacted.rel}`);
      await shots.shot(page, 'meter');
      // The README's picture: the bottom-right corner with the meter and its hover, full size.
      await hoverStatusBarItem(page, 'contextCompactor.meter');
      const size = page.viewportSize();
      const clip = { x: size.width - README_CLIP.width, y: size.height - README_CLIP.height, ...README_CLIP };
      await shots.shot(page, 'meter-hover', { readme: 'meter', clip, keepMouse: true });
      console.log(`[e2e]   meter: ${m.label} ("${m.text}")`);
      return m;
    });

    await step('expected compaction from the CLI (ctxc compact --format json)', () => {
      // As the meter and the confirmation show it: what the agent will send (tokensBefore → tokensAfter,
      // the file's part and the part not in the file, src/engine/figures.ts); with an archive, as the
      // extension always archives: the summary then says undo restores it.
      const archiveDir = mkdtempSync(join(tmpdir(), 'ctxc-e2e-archive-'));
      const compacted = ctxcJson(['compact', files.compacted.path, '--format', 'json', '--archive', archiveDir]);
      const what = `ctxc compact ${files.compacted.rel} --format json`;
      const after = numberField(compacted, 'tokensAfter', what);
      if (!(after < expected.before)) {
        throw new E2eError('ctxc compact does not shrink the mid-size transcript', {
          expected: `tokensAfter < ${expected.before}`,
          seen: `tokensAfter ${after}`,
        });
      }
      console.log(`[e2e]   ${files.compacted.rel}: ${expected.before} → ${after} tokens`);
      expected.after = after;
    });

    await step('Compact Conversation asks first, showing before → after', async () => {
      await runCommand(page, COMMANDS.compact.title, { id: COMMANDS.compact.id });
      const shown = await readModal(page);
      // The workbench's language is English: counts are grouped as 41,260.
      const arrow = `${expected.before.toLocaleString('en')} → ${expected.after.toLocaleString('en')}`;
      const wanted = [CONFIRM_BUTTON, INSPECT_FIRST_BUTTON, CANCEL_BUTTON];
      if (!`${shown.message}\n${shown.detail}`.includes(arrow) || wanted.some((b) => !shown.buttons.includes(b))) {
        throw new E2eError('the confirmation does not follow the contract', {
          expected: `a modal containing "${arrow}" with buttons ${JSON.stringify(wanted)}`,
          seen: `"${shown.message}" / "${shown.detail}" with buttons ${JSON.stringify(shown.buttons)}`,
        });
      }
      await shots.shot(page, 'confirmation', { readme: 'confirmation' });
      console.log(`[e2e]   dialog: ${shown.message} | ${shown.detail.replace(/\n/g, ' | ')}`);
    });

    await step("Compact: the meter drops to ctxc compact's tokensAfter", async () => {
      await answerModal(page, CONFIRM_BUTTON);
      const m = await meterIs(expected.after, `ctxc compact tokensAfter for ${files.compacted.rel}`);
      await shots.shot(page, 'compacted');
      console.log(`[e2e]   meter: ${m.label} ("${m.text}")`);
    });

    await step(
      'Inspect Conversation shows the 8 sections, a timeline row per message, the context pane, and previews a compaction up to a message',
      async () => {
        await runCommand(page, COMMANDS.inspect.title, { id: COMMANDS.inspect.id });
        const frame = await webviewFrame(page, { title: INSPECTOR_TITLE, extensionId: compactorScenario.extensionId });
        for (const heading of SECTIONS) {
          try {
            await frame.getByRole('heading', { name: heading, exact: true }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
          } catch {
            const headings = await frame
              .getByRole('heading')
              .allTextContents()
              .catch(() => []);
            throw new E2eError(`the inspector shows no heading "${heading}"`, {
              expected: `the 8 section headings ${JSON.stringify(SECTIONS)}`,
              seen: `headings ${JSON.stringify(headings.map((h) => h.trim()))}`,
            });
          }
        }
        const rows = frame.getByRole('row');
        try {
          await rows.first().waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
        } catch {
          throw new E2eError('the inspector timeline has no rows', { expected: 'elements with role="row"', seen: 'none' });
        }
        const texts = await rows.allTextContents();
        if (!texts.some((t) => /\b(user|assistant|system|tool)\b/i.test(t))) {
          throw new E2eError('no timeline row names its message role', {
            expected: 'a row containing user/assistant/system/tool',
            seen: JSON.stringify(texts.slice(0, 5)),
          });
        }
        console.log(`[e2e]   inspector: 8 sections, ${texts.length} timeline rows`);
        await shots.shot(page, 'inspector', { readme: 'inspector' });
        const context = await checkInspectorContext(page, frame, shots);
        console.log(`[e2e]   context: ${context.caption} ${context.items} biggest items; compact up to #${context.upTo} of ${context.rows} previewed`);
      },
    );

    await step('Undo Last Compaction restores the original count', async () => {
      await runCommand(page, COMMANDS.undo.title, { id: COMMANDS.undo.id });
      await meterIs(original.total, 'the original total after undo');
      await shots.shot(page, 'undone');
    });

    await step('declining the confirmation (Cancel, then Escape) changes nothing', async () => {
      await clearNotifications(page);
      await runCommand(page, COMMANDS.compact.title, { id: COMMANDS.compact.id });
      await answerModal(page, CANCEL_BUTTON);
      await runCommand(page, COMMANDS.compact.title, { id: COMMANDS.compact.id });
      await readModal(page);
      await page.keyboard.press('Escape');
      await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await meterIs(original.total, 'the original total after declining');
      // Nothing was applied, so there is nothing to undo: this is the proof that neither answer
      // compacted in the background, without waiting an arbitrary time for a change.
      await runCommand(page, COMMANDS.undo.title, { id: COMMANDS.undo.id });
      await waitForNotification(page, NOTHING_TO_UNDO);
      await meterIs(original.total, 'the original total after the empty undo');
      await shots.shot(page, 'declined');
    });

    // @compactor in the real chat view. Chat stays off (chat.disableAIFeatures) for the steps
    // above; the test-only extension turns it on and gives it a deterministic model, so the
    // participant runs end to end without Copilot or a network.
    await step('chat: turned on with the test-only model, @compactor answers through that model', async () => {
      // No editor open: the chat would attach the active one to every request as context.
      await runCommand(page, 'View: Close All Editors', { id: 'workbench.action.closeAllEditors' });
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      await runCommand(page, CHAT_MODEL.enableCommand.title, { id: CHAT_MODEL.enableCommand.id });
      await openChat(page);
      await widenChat(page, CHAT_WIDTH);
      await waitForChatModel(page, CHAT_MODEL.name);
      for (const prompt of CHAT_PROMPTS) {
        const reply = await sendChat(page, `@compactor ${prompt}`);
        if (!reply.text.includes(`You asked: "${prompt}"`)) {
          throw new E2eError('@compactor did not answer with the chat model', {
            expected: `a reply from ${CHAT_MODEL.name} starting 'You asked: "${prompt}"'`,
            seen: JSON.stringify(reply.text.slice(0, 300)),
          });
        }
      }
      console.log(`[e2e]   ${CHAT_PROMPTS.length} rounds answered by ${CHAT_MODEL.name}`);
      await shots.shot(page, 'chat-conversation');
    });

    const usage = await step('chat: @compactor /usage shows a table of what fills the window', async () => {
      const reply = await sendChat(page, '@compactor /usage');
      const head = /([\d,]+) of ([\d,]+) tokens \((\d+\.\d)%\)/.exec(reply.text);
      const table = reply.tables.find((t) => JSON.stringify(t[0]) === JSON.stringify(['Category', 'Tokens', 'Share']));
      const rows = (table || []).slice(1).map(([label, tokens, share]) => ({ label, tokens: groupedInt(tokens), share }));
      const total = head ? groupedInt(head[1]) : NaN;
      const window = head ? groupedInt(head[2]) : NaN;
      const labels = rows.map((r) => r.label);
      const sum = rows.reduce((a, r) => a + r.tokens, 0);
      if (
        !head ||
        window !== CHAT_MODEL.window ||
        !table ||
        !labels.includes('User') ||
        !labels.includes('Assistant') ||
        rows.some((r) => !Number.isInteger(r.tokens) || !/%$/.test(r.share)) ||
        sum !== total ||
        !reply.text.includes(`Model: ${CHAT_MODEL.name}`)
      ) {
        throw new E2eError('the /usage reply does not follow the contract', {
          expected:
            `"<total> of ${CHAT_MODEL.window.toLocaleString('en')} tokens (<p>%)", a Category | Tokens | Share table with User and ` +
            `Assistant rows summing to the total, and "Model: ${CHAT_MODEL.name}"`,
          seen: `${JSON.stringify(reply.text.slice(0, 400))}; tables ${JSON.stringify(reply.tables)}`,
        });
      }
      // The session is the active conversation now: the meter shows it, against the model's window.
      await meterIs(total, 'the chat session measured by /usage');
      await shots.shot(page, 'chat-usage');
      console.log(`[e2e]   /usage: ${total} of ${window} tokens; ${rows.map((r) => `${r.label} ${r.tokens} (${r.share})`).join(', ')}`);
      return { total };
    });

    await step('chat: @compactor /compact reports tokens before → after; the meter drops to after', async () => {
      const reply = await sendChat(page, '@compactor /compact');
      const m = /Compacted: ([\d,]+) → ([\d,]+) tokens/.exec(reply.text);
      const table = reply.tables.find((t) => t.some((r) => r[0] === 'Before'));
      const cell = (label) => groupedInt(((table || []).find((r) => r[0] === label) || [])[1] || '');
      const before = m ? groupedInt(m[1]) : NaN;
      const after = m ? groupedInt(m[2]) : NaN;
      if (!m || before !== usage.total || !(after < before) || cell('Before') !== before || cell('After') !== after) {
        throw new E2eError('the /compact reply does not report the compaction of this session', {
          expected: `"Compacted: ${usage.total} → <fewer> tokens" (the total /usage showed) and a table with the same Before and After`,
          seen: `${JSON.stringify(reply.text.slice(0, 400))}; tables ${JSON.stringify(reply.tables)}`,
        });
      }
      await meterIs(after, 'the chat session after /compact');
      const size = page.viewportSize();
      const chat = await page.locator('.part.auxiliarybar').boundingBox();
      const x = Math.max(0, Math.floor(chat.x) - 8);
      const y = Math.max(0, Math.floor(chat.y));
      // The README's picture: the chat with the reply, and the meter below it in the status bar.
      await shots.shot(page, 'chat-compact', { readme: 'chat', clip: { x, y, width: size.width - x, height: size.height - y } });
      console.log(`[e2e]   /compact: ${before} → ${after} tokens`);
    });
  },
};
