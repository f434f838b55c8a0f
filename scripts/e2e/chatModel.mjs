// A test-only extension, generated and packaged on the fly like the probe, that gives the chat
// view of code-server a language model without Copilot or a network: it registers a provider
// through the stable vscode.lm.registerLanguageModelChatProvider API (declared by the
// `languageModelChatProviders` contribution) whose one model answers deterministically. It also
// contributes the command that turns the chat on for the chat steps only. It lives in the
// sandbox's temporary folder and extensions dir: nothing of it is in the repository's tree or in
// the product .vsix.
//
// What gates @compactor in this build (VS Code 1.139.1), and why each piece is here:
// - `chat.disableAIFeatures: true` (our sandbox default) hides all chat UI: the entitlement
//   context then forces `chatSetupHidden`, and `Chat: Open Chat…` is not in the palette. The
//   setting is read live from the configuration service, but this code-server does not notice a
//   settings.json edited on disk, so the command below writes it through the configuration API.
// - With the chat visible, a request needs a model: the extension host answers
//   request.model from the model the chat input selected (getDefaultLanguageModel only falls
//   back to a `copilot` vendor's default), and the picker offers only models the workbench has
//   resolved. A provider's models are resolved when someone asks for them, so the extension
//   asks once (lm.selectChatModels) right after registering; without that the picker shows
//   "Sign in to use Copilot…" and nothing can be sent.
// - The built-in Copilot Chat extension shows "Set BYOK utility models" over the chat input
//   whenever a non-Copilot model exists; `chat.byokUtilityModelDefault: mainAgent` (in the
//   sandbox settings) tells it the main model is fine.
import { packageTestExtension } from './tools.mjs';

export const CHAT_MODEL = {
  extensionId: 'ctxc-e2e.e2e-chat-model',
  vendor: 'ctxc-e2e',
  id: 'e2e-echo',
  name: 'E2E Echo',
  /** maxInputTokens: @compactor measures a chat session against the model's own window. */
  window: 100_000,
  enableCommand: { id: 'ctxcE2e.enableChat', title: 'E2E Chat Model: Turn On Chat' },
};

const manifest = {
  name: 'e2e-chat-model',
  displayName: 'E2E Chat Model',
  description: 'Test-only language model for the e2e run (never shipped)',
  engines: { vscode: '^1.104.0' },
  // Activated by its provider contribution (onLanguageModelChatProvider:<vendor>) or its command.
  activationEvents: [],
  contributes: {
    languageModelChatProviders: [{ vendor: CHAT_MODEL.vendor, displayName: 'E2E' }],
    commands: [{ command: CHAT_MODEL.enableCommand.id, title: 'Turn On Chat', category: 'E2E Chat Model' }],
  },
};

// The model's answer is a pure function of the prompt: a numbered plan with one line per word
// of the prompt (at most 12), so long prompts make long answers and short ones short answers.
// Tokens are counted as ceil(characters / 4).
const source = `
const vscode = require('vscode');
const M = ${JSON.stringify(CHAT_MODEL)};
const INFO = {
  id: M.id, name: M.name, family: M.id, version: '1', detail: 'e2e', tooltip: 'Test-only model of the e2e run',
  maxInputTokens: M.window, maxOutputTokens: 4000, capabilities: {},
};
function textOf(message) {
  return message.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}
function answer(prompt) {
  const words = prompt.split(/\\s+/).filter(Boolean).slice(0, 12);
  const lines = ['You asked: "' + prompt + '".', ''];
  words.forEach((w, i) => {
    const n = i + 1;
    lines.push(n + '. About "' + w + '": step ' + n + ' reads src/module' + n + '.ts, checks the case where ' + w +
      ' is empty, and records the result in notes/' + w + '-' + n + '.md before moving on.');
  });
  return lines.join('\\n');
}
exports.activate = function (context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(M.vendor, {
    provideLanguageModelChatInformation() { return [INFO]; },
    async provideLanguageModelChatResponse(model, messages, options, progress) {
      progress.report(new vscode.LanguageModelTextPart(answer(textOf(messages[messages.length - 1]))));
    },
    provideTokenCount(model, text) {
      return Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4);
    },
  }));
  // The workbench lists a provider's models once they are asked for; ask now.
  const resolved = vscode.lm.selectChatModels({ vendor: M.vendor });
  context.subscriptions.push(vscode.commands.registerCommand(M.enableCommand.id, async () => {
    await resolved;
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
  }));
};
exports.deactivate = function () {};
`;

/** Writes the extension into `dir` and packages it with vsce; returns the .vsix path. */
export function buildChatModelVsix(dir) {
  return packageTestExtension(dir, { manifest, source, readme: '# E2E chat model\n\nTest-only; built and installed by scripts/e2e.\n' });
}
