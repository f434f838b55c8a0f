// The status-bar token meter for the active conversation: `$(pulse) 142k / 200k · 71%`, coloured
// as the conversation nears its trigger, with the breakdown in the tooltip. It only renders what
// the conversation service already counted, so an update costs nothing but a few strings.

import * as vscode from 'vscode';
import { SESSION_MAX_BYTES } from '../../sessions/diskReads';
import type { ActiveConversation, ConversationService } from '../conversationService';
import { isSessionKey } from '../sessions/sessionConversations';
import { COMMANDS, METER_ID } from '../ids';
import { Disposable } from '../lifecycle';
import type { MeterFocus, MeterGlance } from './meterFocus';
import type { Logger } from '../log';
import type { SettingsStore } from '../settings';
import { contextPressure } from '../trigger';
import { glanceTooltip, meterAccessibilityLabel, meterBackground, meterText, meterTooltip } from './meterText';

/** Right side, left of the language/encoding items that use priorities around 100. */
const METER_PRIORITY = 110;

/** When the meter first shows, how long after activation began is logged (the start-up figure). */
export interface FirstShowLog {
  log: Pick<Logger, 'info'>;
  /** Date.now() when activation began. */
  since: number;
}

export class TokenMeter extends Disposable {
  readonly item: vscode.StatusBarItem;
  private firstShow: FirstShowLog | undefined;

  constructor(
    private readonly service: ConversationService,
    private readonly settings: SettingsStore,
    private readonly focus?: Pick<MeterFocus, 'pinned' | 'onDidChangePin' | 'glance' | 'onDidChangeGlance'>,
    firstShow?: FirstShowLog,
  ) {
    super();
    this.firstShow = firstShow;
    this.item = vscode.window.createStatusBarItem(METER_ID, vscode.StatusBarAlignment.Right, METER_PRIORITY);
    this.item.name = vscode.l10n.t('Context Compactor');
    this.item.command = COMMANDS.showUsage;
    this._register(this.item);
    this._register(service.onDidChangeActive(() => this.render()));
    this._register(service.onDidChange(() => this.render()));
    this._register(settings.onDidChange(() => this.render()));
    if (focus) {
      this._register(focus.onDidChangePin(() => this.render()));
      this._register(focus.onDidChangeGlance(() => this.render()));
    }
    this.render();
  }

  render(conversation: ActiveConversation | undefined = this.service.active()): void {
    const settings = this.settings.current;
    const glance = conversation ? undefined : this.focus?.glance;
    if (glance && settings.enabled) return this.renderGlance(glance);
    if (!conversation || !settings.enabled) {
      this.item.hide();
      return;
    }
    const { report, label } = conversation;
    const pinned = this.focus?.pinned === conversation.key;
    const pressure = contextPressure(report, settings.triggerRatio);
    this.item.text = meterText(report, label, pinned);
    this.item.accessibilityInformation = { label: meterAccessibilityLabel(report, label, pinned), role: 'button' };
    this.item.backgroundColor = meterBackground(pressure);
    this.item.tooltip = meterTooltip(
      {
        label,
        report,
        pressure,
        triggerRatio: settings.triggerRatio,
        compactions: conversation.compactions,
        pinned,
        ...(isSessionKey(conversation.key) ? { followLimitBytes: SESSION_MAX_BYTES } : {}),
      },
      { compact: COMMANDS.compact, inspect: COMMANDS.inspect, usage: COMMANDS.showUsage, pin: COMMANDS.pinMeter, unpin: COMMANDS.unpinMeter },
    );
    this.show('counted');
  }

  /** A session found and not read yet: the tokens of its last request, until it is counted. */
  private renderGlance(g: MeterGlance): void {
    const settings = this.settings.current;
    const figures = { total: g.tokens, window: g.window, percent: g.window > 0 ? (g.tokens / g.window) * 100 : 0 };
    const pressure = contextPressure(figures, settings.triggerRatio);
    this.item.text = meterText(figures, g.label);
    this.item.accessibilityInformation = { label: meterAccessibilityLabel(figures, g.label), role: 'button' };
    this.item.backgroundColor = meterBackground(pressure);
    this.item.tooltip = glanceTooltip(g, figures.percent);
    this.show('at a glance: the last request its agent recorded');
  }

  private show(what: string): void {
    this.item.show();
    if (!this.firstShow) return;
    this.firstShow.log.info(`the meter first showed ${Date.now() - this.firstShow.since} ms after activation began (${what})`);
    this.firstShow = undefined;
  }
}

export function registerMeter(
  context: vscode.ExtensionContext,
  service: ConversationService,
  settings: SettingsStore,
  focus: MeterFocus,
  firstShow?: FirstShowLog,
): TokenMeter {
  const meter = new TokenMeter(service, settings, focus, firstShow);
  context.subscriptions.push(meter);
  return meter;
}
