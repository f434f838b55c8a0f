// What the Sessions view and the meter say about an agent session: the agent's name, a label, the
// row's description (the meter's numbers and how long ago), and its tooltip. Titles, models and
// paths come from the agents' files: untrusted, so a tree label is plain text (VS Code never reads
// it as Markdown) and the tooltip escapes every one of them.

import * as vscode from 'vscode';
import { escapeMarkdown } from '../../engine/text/markdownEscape';
import type { AgentSession } from '../../sessions/agentSession';
import { agentName } from '../../sessions/agents/registry';
import { formatTokenCount, groupedNumber } from '../meter/meterText';

/** The session's first request, else its id. */
export function sessionTitle(s: Pick<AgentSession, 'title' | 'id'>): string {
  return s.title || s.id;
}

/** How much of a title a row of the view shows, so the numbers after it stay in sight in a side
 *  bar of 500 px (the end-to-end test measures it; the tooltip has the whole title). */
export const ROW_TITLE_CHARS = 36;

/** The title on a row of the Sessions view. */
export function rowTitle(s: Pick<AgentSession, 'title' | 'id'>): string {
  const t = sessionTitle(s);
  return t.length > ROW_TITLE_CHARS ? `${t.slice(0, ROW_TITLE_CHARS - 1).trimEnd()}…` : t;
}

/** "Claude Code: fix the loader" — the conversation's label in the meter and the inspector. */
export function sessionLabel(s: Pick<AgentSession, 'agent' | 'title' | 'id'>): string {
  return `${agentName(s.agent)}: ${sessionTitle(s)}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** "5 min. ago", "yesterday", "now", in the editor's language. */
export function relativeTime(thenMs: number, nowMs: number, language = vscode.env.language || 'en'): string {
  let format: Intl.RelativeTimeFormat;
  try {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' });
  } catch {
    format = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
  }
  const ago = Math.max(0, nowMs - thenMs);
  for (const [unit, ms] of UNITS) if (ago >= ms) return format.format(-Math.floor(ago / ms), unit);
  return format.format(0, 'second');
}

/** The meter's numbers for a row: `41k / 200k · 21%`. */
export function sessionNumbers(s: Pick<AgentSession, 'tokens' | 'window'>): string {
  const percent = s.window > 0 ? Math.round((s.tokens / s.window) * 100) : 0;
  return `${formatTokenCount(s.tokens)} / ${formatTokenCount(s.window)} · ${percent}%`;
}

/** The row's description: the numbers and the last activity, or that it cannot be read. */
export function sessionDescription(s: AgentSession, nowMs: number): string {
  const when = relativeTime(s.mtimeMs, nowMs);
  if (s.error) return `${vscode.l10n.t('cannot be read')} · ${when}`;
  if (s.messages === 0) return `${vscode.l10n.t('empty')} · ${when}`;
  return `${sessionNumbers(s)} · ${when}`;
}

/** The row's tooltip: what the agent sends, what is history, the model, the file, the error. */
export function sessionTooltip(s: AgentSession): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown(`**${agentName(s.agent)}** — ${escapeMarkdown(sessionTitle(s))}\n\n`);
  if (s.error) {
    md.appendMarkdown(`${vscode.l10n.t('This session cannot be read: {0}', escapeMarkdown(s.error))}\n\n`);
  } else {
    const percent = s.window > 0 ? ((s.tokens / s.window) * 100).toFixed(1) : '0.0';
    md.appendMarkdown(
      `${vscode.l10n.t('{0} of {1} tokens ({2}%) are sent when the session is resumed ({3} messages).', groupedNumber(s.tokens), groupedNumber(s.window), percent, s.messages)}\n\n`,
    );
    if (s.overhead !== undefined && s.overhead > 0) {
      md.appendMarkdown(
        `${
          s.reportedTokens !== undefined
            ? vscode.l10n.t('Of these, {0} are not in the file (system prompt, tools), from the usage the agent reported.', groupedNumber(s.overhead))
            : vscode.l10n.t('Of these, {0} are not in the file (system prompt, tools), as recorded when Compact wrote this session.', groupedNumber(s.overhead))
        }\n\n`,
      );
    }
    if (s.historyTokens > 0) {
      md.appendMarkdown(
        `${vscode.l10n.t('The file also holds {0} tokens of history that are not sent: branches left by a rewind, and what came before the last compaction.', groupedNumber(s.historyTokens))}\n\n`,
      );
    }
    if (s.warnings > 0) md.appendMarkdown(`${vscode.l10n.t('{0} lines could not be read and were skipped.', s.warnings)}\n\n`);
    if (s.newerThanTested)
      md.appendMarkdown(
        `${vscode.l10n.t('Written by {0} {1}, newer than the newest version tested ({2}): it is read as that one writes.', agentName(s.agent), escapeMarkdown(s.agentVersion ?? ''), s.newerThanTested)}\n\n`,
      );
  }
  if (s.model) md.appendMarkdown(`${vscode.l10n.t('Model: {0}', escapeMarkdown(s.model))}\n\n`);
  if (s.relation === 'compacted') md.appendMarkdown(`${vscode.l10n.t('Written by a compaction of the session it is listed under.')}\n\n`);
  if (s.relation === 'subagent') md.appendMarkdown(`${vscode.l10n.t('A sub-agent of the session it is listed under.')}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('Last activity: {0}', new Date(s.mtimeMs).toLocaleString(vscode.env.language || 'en'))}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('File: {0}', escapeMarkdown(s.file))}`);
  if (!s.resumable)
    md.appendMarkdown(`\n\n${vscode.l10n.t('{0} cannot resume a session from a file: Compact makes a handoff prompt for a new one.', agentName(s.agent))}`);
  return md;
}
