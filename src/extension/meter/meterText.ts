// What the status-bar meter says: pure functions, so the exact strings (the end-to-end test reads
// the accessibility label) are tested without a status bar.

import * as vscode from 'vscode';
import type { ReportedUsage, UsageSource } from '../../engine/conversation/model';
import { usageSourceLabel as registryUsageLabel } from '../../sessions/agents/registry';
import type { TokenReport } from '../../engine/tokens/report';
import type { TokenCategory } from '../../engine/tokens/tokenCounter';
import { TOKEN_CATEGORIES } from '../../engine/tokens/tokenCounter';
import { clip } from '../../engine/text/clip';
import { escapeMarkdown } from '../../engine/text/markdownEscape';
import type { ContextPressure } from '../trigger';

/** Under this many tokens a count is shown whole (e.g. 950). */
const THOUSAND = 1_000;
const MILLION = 1_000_000;
/** Below 10k one decimal tells 8.2k from 8.9k; above, whole thousands are precise enough. */
const ONE_DECIMAL_BELOW = 10_000;

function oneDecimal(value: number): string {
  return (Math.round(value * 10) / 10).toFixed(1);
}

/** 950 → "950", 8240 → "8.2k", 142317 → "142k", 1047576 → "1M", 1500000 → "1.5M". */
export function formatTokenCount(n: number): string {
  const v = Math.max(0, Math.round(n));
  if (v < THOUSAND) return String(v);
  if (v < ONE_DECIMAL_BELOW - 50) return `${oneDecimal(v / THOUSAND)}k`;
  if (Math.round(v / THOUSAND) < THOUSAND) return `${Math.round(v / THOUSAND)}k`;
  const m = oneDecimal(v / MILLION);
  return `${m.endsWith('.0') ? m.slice(0, -2) : m}M`;
}

/** Characters of the label (the agent and session, the transcript, the chat) the status bar shows. */
export const METER_LABEL_CHARS = 32;

/** What the meter shows, for the status bar: its label, clipped, as plain text (the status bar reads
 *  `$(name)` as an icon: a label's own is written so it is not one). */
export function meterShortLabel(label: string): string {
  const one = label.replace(/\s+/g, ' ').trim();
  const cut = one.length > METER_LABEL_CHARS ? `${one.slice(0, METER_LABEL_CHARS - 1).trimEnd()}…` : one;
  return cut.replace(/\$\(/g, '$\u200b(');
}

/** `$(pulse) 142k / 200k · 71% · Claude Code: fix the loader`, `$(pinned)` when pinned. */
export function meterText(report: Pick<TokenReport, 'total' | 'window' | 'percent'>, label?: string, pinned = false): string {
  const numbers = `$(${pinned ? 'pinned' : 'pulse'}) ${formatTokenCount(report.total)} / ${formatTokenCount(report.window)} · ${Math.round(report.percent)}%`;
  return label ? `${numbers} · ${meterShortLabel(label)}` : numbers;
}

/** `Context Compactor: 142317 / 200000 tokens (71.2%) — Claude Code: fix the loader (pinned)`:
 *  plain integers, one decimal, then what it shows. */
export function meterAccessibilityLabel(report: Pick<TokenReport, 'total' | 'window' | 'percent'>, label?: string, pinned = false): string {
  const numbers = vscode.l10n.t('Context Compactor: {0} / {1} tokens ({2}%)', String(report.total), String(report.window), report.percent.toFixed(1));
  if (!label) return numbers;
  return `${numbers} — ${pinned ? vscode.l10n.t('{0} (pinned)', label) : label}`;
}

export function meterBackground(pressure: ContextPressure): vscode.ThemeColor | undefined {
  if (pressure.level === 'trigger') return new vscode.ThemeColor('statusBarItem.errorBackground');
  if (pressure.level === 'warning') return new vscode.ThemeColor('statusBarItem.warningBackground');
  return undefined;
}

export function categoryLabel(c: TokenCategory): string {
  switch (c) {
    case 'system':
      return vscode.l10n.t('System');
    case 'toolDefinitions':
      return vscode.l10n.t('Tool definitions');
    case 'user':
      return vscode.l10n.t('User');
    case 'assistant':
      return vscode.l10n.t('Assistant');
    case 'toolCalls':
      return vscode.l10n.t('Tool calls');
    case 'toolResults':
      return vscode.l10n.t('Tool results');
    case 'thinking':
      return vscode.l10n.t('Thinking');
    case 'summary':
      return vscode.l10n.t('Summary');
    case 'unseen':
      return vscode.l10n.t('Not in the file (system prompt, tools)');
  }
}

/** Who reported a figure, for people. */
export function usageSourceLabel(source: UsageSource): string {
  return registryUsageLabel(source, vscode.l10n.t('the export'));
}

/** "line 501", "ui_messages.json[212]", "messages[40]": where a reported figure is written. */
export function usageWhere(u: Pick<ReportedUsage, 'line' | 'index' | 'file'>): string {
  if (u.line !== undefined) return u.file ? vscode.l10n.t('{0} line {1}', u.file, u.line) : vscode.l10n.t('line {0}', u.line);
  if (u.index !== undefined) return u.file ? `${u.file}[${u.index}]` : `messages[${u.index}]`;
  return u.file ?? '';
}

/** Where the meter's number comes from, as Markdown: the API's figure and what was counted since,
 *  with the split (reported · counted since · not in the file); or our count, labelled an estimate
 *  when another tokenizer stands in for the model's. */
export function basisMarkdown(report: TokenReport): string {
  const basis = report.reported;
  if (basis) {
    const u = basis.usage;
    const from = escapeMarkdown(`${usageSourceLabel(u.source)}, ${usageWhere(u)}`);
    const rounded = u.rounding ? ` ${vscode.l10n.t('(printed rounded, ±{0})', groupedNumber(u.rounding))}` : '';
    if (basis.countedSince !== undefined) {
      return [
        `${vscode.l10n.t('As reported by the API ({0}), +{1} since.', from, formatTokenCount(basis.countedSince))}${rounded}`,
        vscode.l10n.t(
          'Reported: {0} · counted since: {1} · not in the file (system prompt, tools): {2}',
          groupedNumber(u.tokens),
          groupedNumber(basis.countedSince),
          groupedNumber(report.overhead),
        ),
      ].join('\n\n');
    }
    return vscode.l10n.t(
      'Counted: {0} · not in the file (system prompt, tools), from the usage the agent reported ({1}): {2}',
      groupedNumber(report.counted),
      from,
      groupedNumber(report.overhead),
    );
  }
  if (report.inherited && report.overhead > 0) {
    return vscode.l10n.t(
      'Counted: {0} · not in the file (system prompt, tools), as recorded when Compact wrote this session: {1}. The agent has recorded no usage here yet.',
      groupedNumber(report.counted),
      groupedNumber(report.overhead),
    );
  }
  if (report.implausible) {
    const u = report.implausible.usage;
    return vscode.l10n.t(
      'Our count. The agent recorded {0} tokens ({1}), fewer than our count of the same messages ({2}): that figure cannot be what was sent, so it is not used.',
      groupedNumber(u.tokens),
      escapeMarkdown(`${usageSourceLabel(u.source)}, ${usageWhere(u)}`),
      groupedNumber(report.implausible.countedAsOf),
    );
  }
  if (report.method === 'exact') return vscode.l10n.t("Counted with the model's own tokenizer; no usage reported.");
  if (report.method === 'proxy')
    return vscode.l10n.t("An estimate: {0} stands in for this model's tokenizer; no usage reported.", escapeMarkdown(clip(report.encoding)));
  return vscode.l10n.t('An estimate from the characters; no usage reported.');
}

export function methodLabel(report: Pick<TokenReport, 'method' | 'encoding'>): string {
  switch (report.method) {
    case 'exact':
      return vscode.l10n.t('exact ({0})', report.encoding);
    case 'proxy':
      return vscode.l10n.t('approximate ({0} as a proxy)', report.encoding);
    case 'estimate':
      return vscode.l10n.t('estimate (characters)');
  }
}

/** "Model: gpt-4o · window 128,000 · count: exact (o200k_base)" as Markdown (the tooltip, chat's
 *  /usage). The model and the encoding come from the conversation or a chat model: escaped. */
export function modelLineMarkdown(report: Pick<TokenReport, 'model' | 'window' | 'method' | 'encoding'>): string {
  return vscode.l10n.t(
    'Model: {0} · window {1} · count: {2}',
    escapeMarkdown(clip(report.model)),
    groupedNumber(report.window),
    methodLabel({ method: report.method, encoding: escapeMarkdown(clip(report.encoding)) }),
  );
}

/** Integers with grouping for people (the tooltip), e.g. 142,317. */
export function groupedNumber(n: number): string {
  try {
    return new Intl.NumberFormat(vscode.env.language || 'en').format(n);
  } catch {
    return String(n);
  }
}

function percentOf(part: number, total: number): string {
  return total > 0 ? `${((part / total) * 100).toFixed(1)}%` : '0%';
}

export interface MeterTooltipInput {
  label: string;
  report: TokenReport;
  pressure: ContextPressure;
  triggerRatio: number;
  compactions: number;
  /** The meter is pinned to this conversation. */
  pinned: boolean;
  /** An agent session followed as it is written: the most of its file the meter reads. */
  followLimitBytes?: number;
}

/** Rows of the breakdown that hold tokens, largest first. */
export function breakdownRows(report: TokenReport): { category: TokenCategory; label: string; tokens: number; share: string }[] {
  return TOKEN_CATEGORIES.map((c) => ({ c, tokens: report.byCategory[c] ?? 0 }))
    .filter(({ tokens }) => tokens > 0)
    .map(({ c, tokens }) => ({ category: c, label: categoryLabel(c), tokens, share: percentOf(tokens, report.total) }))
    .sort((a, b) => b.tokens - a.tokens);
}

/** The tooltip. Its command links are the extension's own (the only commands it may run), and
 *  every text from the conversation (its label, the model it names) is escaped: a crafted
 *  transcript can add no link, image, HTML or command to it. */
export function meterTooltip(
  input: MeterTooltipInput,
  commands: { compact: string; inspect: string; usage: string; pin: string; unpin: string },
): vscode.MarkdownString {
  const { report, pressure } = input;
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = { enabledCommands: [commands.compact, commands.inspect, commands.usage, commands.pin, commands.unpin] };
  md.supportHtml = false;
  md.appendMarkdown(`**${vscode.l10n.t('Context Compactor')}** — `);
  md.appendMarkdown(escapeMarkdown(input.label));
  md.appendMarkdown('\n\n');
  md.appendMarkdown(
    `${input.pinned ? vscode.l10n.t('The meter is pinned to this conversation.') : vscode.l10n.t('The meter follows the focused transcript, else the live agent session.')}\n\n`,
  );
  md.appendMarkdown(`${vscode.l10n.t('{0} of {1} tokens ({2}%)', groupedNumber(report.total), groupedNumber(report.window), report.percent.toFixed(1))}\n\n`);
  md.appendMarkdown(`${basisMarkdown(report)}\n\n`);
  md.appendMarkdown(`| ${vscode.l10n.t('Category')} | ${vscode.l10n.t('Tokens')} | ${vscode.l10n.t('Share')} |\n|---|---:|---:|\n`);
  for (const row of breakdownRows(report)) md.appendMarkdown(`| ${row.label} | ${groupedNumber(row.tokens)} | ${row.share} |\n`);
  md.appendMarkdown('\n');
  md.appendMarkdown(
    `${vscode.l10n.t('Compaction is proposed at {0}% ({1} tokens).', Math.round(input.triggerRatio * 100), groupedNumber(pressure.thresholdTokens))}\n\n`,
  );
  md.appendMarkdown(`${modelLineMarkdown(report)}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('Compactions so far: {0}', input.compactions)}\n\n`);
  if (input.followLimitBytes !== undefined) {
    const mb = String(Math.round(input.followLimitBytes / 1024 / 1024));
    md.appendMarkdown(
      `${vscode.l10n.t('Followed as its agent writes it, up to {0} MB: a larger session file is not read (the Sessions view lists it with its size).', mb)}\n\n`,
    );
  }
  const pin = input.pinned ? `[${vscode.l10n.t('Unpin')}](command:${commands.unpin})` : `[${vscode.l10n.t('Pin')}](command:${commands.pin})`;
  md.appendMarkdown(
    `[${vscode.l10n.t('Compact…')}](command:${commands.compact}) · [${vscode.l10n.t('Inspect')}](command:${commands.inspect}) · [${vscode.l10n.t('Usage')}](command:${commands.usage}) · ${pin}`,
  );
  return md;
}

/** The tooltip of a session found and not read yet (its label comes from the session: escaped). */
export function glanceTooltip(g: { label: string; tokens: number; window: number; source: string }, percent: number): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown(`**${vscode.l10n.t('Context Compactor')}** — ${escapeMarkdown(g.label)}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('{0} of {1} tokens ({2}%)', groupedNumber(g.tokens), groupedNumber(g.window), percent.toFixed(1))}\n\n`);
  md.appendMarkdown(
    vscode.l10n.t('As the API reported for the last request ({0}). The session is being read and counted; the breakdown follows.', escapeMarkdown(g.source)),
  );
  return md;
}
