// bench:quality's agent sessions and its summary-contract checks: the bench's own reading of a
// Codex IDE rollout, a Claude Code session and a Cline task gives back the story's requests (never
// the IDE block, the environment details or a reminder), its files and its rules; the checks see
// a missing heading, a cut rule, a ledger entry dropped or revived, and an archive pointer.

import { describe, expect, it } from 'vitest';
import { agentFiles } from '../../bench/quality/agentFiles';
import { story } from '../../bench/quality/agentStories';
import { chainCuts } from '../../bench/quality/chains';
import { expectedFactsOfText } from '../../bench/quality/rawFacts';
import { cutRules, hasAllHeadings, ledgerKept, ledgerLinesOf, untrueClaims } from '../../bench/quality/summaryChecks';
import { importTranscript } from '../../src/engine/conversation/importers/detect';

const s = story('team-settings', 11, 14);
const files = agentFiles([s]);

describe('the agent sessions, read back by the bench', () => {
  it.each(files.map((f) => [f.format, f] as const))('%s: the requests as typed, the files acted on, the rules', (_format, f) => {
    const facts = expectedFactsOfText(f.text, f.rel, f.format)[0]!;
    expect(facts.userRequests).toEqual(s.turns.map((t) => t.request));
    for (const t of s.turns) for (const c of t.calls) if (c.kind === 'write' || c.kind === 'read') expect(facts.files.join('\n')).toContain(c.path);
    expect(facts.rules.length).toBeGreaterThanOrEqual(3);
    expect(facts.rules.some((r) => r.startsWith('From now on, keep every commit small'))).toBe(true);
  });

  it('are files the engine imports as their agent’s format', () => {
    const formats = files.map((f) => importTranscript(f.text, { sourcePath: f.rel, wholeFile: true }).conversation.format);
    expect(formats).toEqual(['codex', 'claude-code', 'cline']);
  });

  it('cut at a person’s message into three parts for the chain', () => {
    const conv = importTranscript(files[0]!.text, { sourcePath: files[0]!.rel }).conversation;
    const cuts = chainCuts(conv.messages)!;
    expect(cuts).toHaveLength(2);
    for (const c of cuts) expect(conv.messages[c]!.itemType).toBe('USER_MESSAGE');
  });
});

describe('the summary-contract checks', () => {
  const rule = 'From now on, keep every commit small and focused on one change, and squash the fixups before review.';

  it('a rule whose opening is there without its end is cut; whole or absent is not', () => {
    expect(cutRules([rule], `- From now on, keep every commit small and [… 1,348 more characters]`).cut).toBe(1);
    expect(cutRules([rule], `- ${rule} Thanks.\n- Rule (user, x): “${rule}”`).cut).toBe(0);
    expect(cutRules([rule], '- Please review.').cut).toBe(0);
  });

  it('all eight headings, or not', () => {
    const names = [
      'Primary Request and Intent',
      'Key Technical Concepts',
      'Files and Code Sections',
      'Errors and fixes',
      'Problem Solving',
      'All user messages',
      'Pending Tasks',
      'Current Work',
    ];
    const full = names.map((n) => `## ${n}\n- (none)`).join('\n\n');
    expect(hasAllHeadings(full)).toBe(true);
    expect(hasAllHeadings(full.replace('## Problem Solving', ''))).toBe(false);
  });

  it('the ledger: kept as it was, or updated with where; never dropped, never reopened', () => {
    const first = ledgerLinesOf('- Ledger (carried …):\n  - Rule (user, a): “x”\n  - Plan [done] (TodoWrite, b): Ship\n  - Plan [open] (TodoWrite, b): Test');
    expect(first).toHaveLength(3);
    const same = ledgerLinesOf('- Ledger (carried …):\n  - Rule (user, a): “x”\n  - Plan [done] (TodoWrite, b): Ship\n  - Plan [done] (TodoWrite, c): Test');
    expect(ledgerKept(first, same)).toEqual({ rules: [1, 1], plans: [2, 2] });
    const bad = ledgerLinesOf('- Ledger (carried …):\n  - Plan [open] (TodoWrite, c): Ship');
    expect(ledgerKept(first, bad)).toEqual({ rules: [0, 1], plans: [0, 2] });
  });

  it('names the untrue claims of the issue’s list', () => {
    expect(untrueClaims("[shortened; the full text is message a1 in this compaction's archive]", { otherSessionTitles: false, declined: false })).toHaveLength(
      1,
    );
    expect(untrueClaims('- Earlier summary: Other work 3', { otherSessionTitles: true, declined: false })).toHaveLength(1);
    expect(untrueClaims('# Compacted conversation summary\n## Errors and fixes\n- (none)\n', { otherSessionTitles: false, declined: true })).toHaveLength(1);
  });
});
