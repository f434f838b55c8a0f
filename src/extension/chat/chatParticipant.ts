// @compactor in VS Code chat. It answers with the model the user picked (request.model), sending
// the session's compacted history instead of the raw one; keeps per-session state through the
// conversation store; proposes compaction at the trigger with buttons (the compaction runs when
// the user clicks, or at once when requireConfirmation is off); and offers /compact [focus],
// /usage, /inspect, /undo and /export.

import * as vscode from 'vscode';
import type { CommandDeps } from '../commands/commandDeps';
import { describeResult } from '../commands/compactCommand';
import type { ActiveConversation, Compaction } from '../conversationService';
import { localWarningText } from '../engineWarnings';
import { CHAT_PARTICIPANT_ID, COMMANDS, INTERNAL_COMMANDS } from '../ids';
import { describeError, guarded, isCancellation, NothingToDoError, userMessageOf } from '../log';
import { clip, MAX_ECHO_CHARS } from '../../engine/text/clip';
import { escapeMarkdown } from '../../engine/text/markdownEscape';
import { notificationText } from '../notificationText';
import { AnswerMarkdown } from './answerMarkdown';
import { breakdownRows, groupedNumber, modelLineMarkdown } from '../meter/meterText';
import { contextPressure } from '../trigger';
import { historyConversation, sessionKeyOf, sessionLabel } from './chatHistory';
import { toLanguageModelMessages } from './lmMessages';
import { LmTokenCounters } from './lmTokenCounter';

export interface ChatResultMetadata {
  sessionKey: string;
  /** The model's answer alone (without the participant's notices): the history is rebuilt from it. */
  answer?: string;
  command?: string;
}

/** The window a chat session is measured against: the setting's override, else the model's input limit. */
export function chatWindow(model: vscode.LanguageModelChat, maxContextTokens: number): number {
  return maxContextTokens > 0 ? maxContextTokens : model.maxInputTokens;
}

/** Text from a model, a server or a transcript, bounded before it is quoted in a reply. */
function untrusted(text: string): string {
  return clip(text, 2 * MAX_ECHO_CHARS);
}

export class CompactorChatParticipant {
  private readonly counters = new LmTokenCounters();

  constructor(private readonly deps: CommandDeps) {}

  readonly handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    const key = sessionKeyOf(context.history, request);
    try {
      const session = await this.sync(key, request, context);
      switch (request.command) {
        case 'compact':
          return await this.compactNow(session, request.prompt.trim(), stream, token);
        case 'usage':
          return this.usage(session, stream);
        case 'inspect':
          await this.deps.inspector.show(key);
          stream.markdown(vscode.l10n.t('Opened the inspector for this chat session.'));
          return { metadata: { sessionKey: key, command: 'inspect' } satisfies ChatResultMetadata };
        case 'undo':
          return await this.undo(session, stream);
        case 'export': {
          const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>(COMMANDS.export, key);
          stream.markdown(uri ? vscode.l10n.t('Exported to {0}.', escapeMarkdown(vscode.workspace.asRelativePath(uri))) : vscode.l10n.t('Export cancelled.'));
          return { metadata: { sessionKey: key, command: 'export' } satisfies ChatResultMetadata };
        }
        default:
          return await this.answer(session, request, stream, token);
      }
    } catch (err) {
      if (isCancellation(err)) return { metadata: { sessionKey: key } satisfies ChatResultMetadata };
      this.deps.log.error('@compactor request failed', err);
      const message = userMessageOf(err);
      stream.markdown(vscode.l10n.t('Sorry, that failed: {0}', escapeMarkdown(untrusted(message))));
      return { errorDetails: { message }, metadata: { sessionKey: key } satisfies ChatResultMetadata };
    }
  };

  /** Brings the store's copy of this session up to date with the chat history, counted by the chat model. */
  private async sync(key: string, request: vscode.ChatRequest, context: vscode.ChatContext): Promise<ActiveConversation> {
    const model = request.model;
    const counter = this.counters.for(model);
    const window = chatWindow(model, this.deps.settings.current.maxContextTokens);
    const source = historyConversation(context.history, key, model.family || model.id);
    const session = await this.deps.store.upsertSource(key, source, {
      label: sessionLabel(context.history, request),
      kind: 'chat',
      model: model.family || model.id,
      reportProvider: (messages) => counter.report(messages, window),
    });
    this.deps.focus.show(key, 'chat');
    return session;
  }

  private async answer(
    session: ActiveConversation,
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const settings = this.deps.settings.current;
    const counter = this.counters.for(request.model);
    let current = session;
    if (settings.enabled && current.conversation.messages.length > 0) {
      const promptTokens = await counter.countText(request.prompt, token);
      const pressure = contextPressure({ total: current.report.total + promptTokens, window: current.report.window }, settings.triggerRatio);
      if (pressure.level === 'trigger') {
        if (settings.requireConfirmation) this.proposeCompaction(current, pressure.ratio, stream);
        else {
          try {
            const compaction = await this.deps.store.apply(current.key, undefined, token);
            this.reportSavings(
              current.key,
              compaction,
              stream,
              vscode.l10n.t('The conversation reached {0}% of its window, so it was compacted first.', Math.round(pressure.ratio * 100)),
            );
            current = this.deps.store.get(current.key) ?? current;
          } catch (err) {
            // Nothing to compact (e.g. a few very long turns): answer from the history as it is.
            if (!(err instanceof NothingToDoError)) throw err;
            this.deps.log.info(`@compactor: ${err.message}`);
          }
        }
      }
    }
    const messages = [...toLanguageModelMessages(current.conversation.messages), vscode.LanguageModelChatMessage.User(request.prompt)];
    let answer = '';
    try {
      const response = await request.model.sendRequest(messages, {}, token);
      // The answer stays Markdown, but can load no image and run no command (answerMarkdown.ts).
      const safe = new AnswerMarkdown();
      for await (const chunk of response.text) {
        answer += chunk;
        const lines = safe.push(chunk);
        if (lines) stream.markdown(lines);
      }
      const rest = safe.end();
      if (rest) stream.markdown(rest);
    } catch (err) {
      if (isCancellation(err) || token.isCancellationRequested) throw err;
      this.deps.log.error('the chat model failed', err);
      const message = vscode.l10n.t('The language model could not answer: {0}', userMessageOf(err));
      stream.markdown(vscode.l10n.t('The language model could not answer: {0}', escapeMarkdown(untrusted(userMessageOf(err)))));
      return { errorDetails: { message }, metadata: { sessionKey: session.key } satisfies ChatResultMetadata };
    }
    return { metadata: { sessionKey: session.key, answer } satisfies ChatResultMetadata };
  }

  /** The confirmation in chat: what the session weighs, and buttons; nothing happens until a click. */
  private proposeCompaction(session: ActiveConversation, ratio: number, stream: vscode.ChatResponseStream): void {
    stream.markdown(
      `> ${vscode.l10n.t('This conversation uses {0} of {1} tokens ({2}%). Compacting it keeps the last {3} rounds verbatim and summarizes the rest into 8 sections; the original stays archived and can be restored.', groupedNumber(session.report.total), groupedNumber(session.report.window), Math.round(ratio * 100), this.deps.settings.current.keepRecentRounds)}\n\n`,
    );
    stream.button({ command: INTERNAL_COMMANDS.compactSession, title: vscode.l10n.t('Compact Conversation'), arguments: [session.key] });
    stream.button({ command: COMMANDS.inspect, title: vscode.l10n.t('Inspect First…'), arguments: [session.key] });
    stream.markdown('\n\n');
  }

  private reportSavings(key: string, compaction: Compaction, stream: vscode.ChatResponseStream, intro?: string): void {
    const { result, figures } = compaction;
    const lines = [
      intro ? `${intro}\n\n` : '',
      `**${describeResult(compaction)}**\n\n`,
      `| | ${vscode.l10n.t('Tokens')} |\n|---|---:|\n`,
      `| ${vscode.l10n.t('Before')} | ${groupedNumber(figures.before.total)} |\n`,
      `| ${vscode.l10n.t('After')} | ${groupedNumber(figures.after.total)} |\n`,
      `| ${vscode.l10n.t('Saved')} | ${groupedNumber(figures.before.total - figures.after.total)} |\n\n`,
      `${vscode.l10n.t('Strategy: {0} · Summarizer: {1}', escapeMarkdown(result.strategy), escapeMarkdown(result.summarizer.name))}\n\n`,
    ];
    // Warnings quote servers and models (a fallback reason): text, never Markdown.
    for (const w of result.warnings) lines.push(`> ${escapeMarkdown(untrusted(localWarningText(w)))}\n\n`);
    stream.markdown(lines.join(''));
    stream.button({ command: INTERNAL_COMMANDS.undoSession, title: vscode.l10n.t('Undo'), arguments: [key] });
    stream.button({ command: COMMANDS.inspect, title: vscode.l10n.t('Inspect'), arguments: [key] });
  }

  private async compactNow(
    session: ActiveConversation,
    focus: string,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    if (session.conversation.messages.length === 0) {
      stream.markdown(vscode.l10n.t('There is nothing to compact yet: this session has no earlier messages.'));
      return { metadata: { sessionKey: session.key, command: 'compact' } satisfies ChatResultMetadata };
    }
    stream.progress(vscode.l10n.t('Compacting…'));
    let result: Compaction;
    try {
      result = await this.deps.store.apply(session.key, undefined, token, focus ? { focus } : {});
    } catch (err) {
      if (!(err instanceof NothingToDoError)) throw err;
      stream.markdown(escapeMarkdown(err.message));
      return { metadata: { sessionKey: session.key, command: 'compact' } satisfies ChatResultMetadata };
    }
    this.reportSavings(session.key, result, stream, focus ? vscode.l10n.t('Focus: {0}', escapeMarkdown(untrusted(focus))) : undefined);
    return { metadata: { sessionKey: session.key, command: 'compact' } satisfies ChatResultMetadata };
  }

  private usage(session: ActiveConversation, stream: vscode.ChatResponseStream): vscode.ChatResult {
    const { report } = session;
    const settings = this.deps.settings.current;
    const pressure = contextPressure(report, settings.triggerRatio);
    let md = `**${vscode.l10n.t('{0} of {1} tokens ({2}%)', groupedNumber(report.total), groupedNumber(report.window), report.percent.toFixed(1))}**\n\n`;
    md += `| ${vscode.l10n.t('Category')} | ${vscode.l10n.t('Tokens')} | ${vscode.l10n.t('Share')} |\n|---|---:|---:|\n`;
    for (const row of breakdownRows(report)) md += `| ${row.label} | ${groupedNumber(row.tokens)} | ${row.share} |\n`;
    md += `\n${modelLineMarkdown(report)}\n\n`;
    md += `${vscode.l10n.t('Compaction is proposed at {0}% ({1} tokens). Compactions so far: {2}.', Math.round(settings.triggerRatio * 100), groupedNumber(pressure.thresholdTokens), session.compactions)}\n`;
    stream.markdown(md);
    return { metadata: { sessionKey: session.key, command: 'usage' } satisfies ChatResultMetadata };
  }

  private async undo(session: ActiveConversation, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const before = session.report.total;
    const undone = await this.deps.store.undo(session.key);
    if (!undone) stream.markdown(vscode.l10n.t('Nothing to undo'));
    else {
      const after = this.deps.store.get(session.key)?.report.total ?? before;
      stream.markdown(
        vscode.l10n.t('Restored the conversation as it was before the last compaction: {0} → {1} tokens.', groupedNumber(before), groupedNumber(after)),
      );
    }
    return { metadata: { sessionKey: session.key, command: 'undo' } satisfies ChatResultMetadata };
  }
}

/** The button under a chat proposal: compacts that session, with progress and cancellation. */
export async function compactSessionCommand(deps: CommandDeps, key: unknown): Promise<Compaction | undefined> {
  const session = typeof key === 'string' ? deps.store.get(key) : undefined;
  if (!session) {
    void vscode.window.showInformationMessage(vscode.l10n.t('That chat session is no longer loaded. Send @compactor a message in it, then use /compact.'));
    return undefined;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: notificationText(vscode.l10n.t('Compacting {0}…', session.label)), cancellable: true },
    (_p, token) => deps.store.apply(session.key, undefined, token),
  );
  void vscode.window.showInformationMessage(`${describeResult(result)} ${vscode.l10n.t('The next @compactor request sends the compacted history.')}`);
  return result;
}

export function registerChatParticipant(context: vscode.ExtensionContext, deps: CommandDeps): CompactorChatParticipant | undefined {
  context.subscriptions.push(
    vscode.commands.registerCommand(INTERNAL_COMMANDS.compactSession, (key: unknown) =>
      guarded(deps.log, vscode.l10n.t('Compact Conversation'), () => compactSessionCommand(deps, key)),
    ),
  );
  // Hosts without the chat API (older VS Code, some forks) still get everything else.
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    deps.log.warn('this host has no chat API: @compactor is not available');
    return undefined;
  }
  const participant = new CompactorChatParticipant(deps);
  try {
    const registered = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, participant.handler);
    registered.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
    context.subscriptions.push(registered);
  } catch (err) {
    deps.log.warn(`@compactor could not be registered: ${describeError(err)}`);
    return undefined;
  }
  return participant;
}
