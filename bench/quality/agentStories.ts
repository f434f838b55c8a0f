// The agent sessions bench:quality adds to the shared transcripts: coding sessions written for this
// project (no real ones of these agents are public under a license we can ship), in the files the
// agents write — a Codex IDE-extension rollout, a Claude Code session, a Cline task — generated
// from a seed. Each is one story told in the agent's own shapes, with what real sessions of these
// agents carry and the summary got wrong: the IDE's context block around every request, Cline's
// environment details, Claude Code's reminders and the titles of other sessions, Windows and
// route-group paths, long requests with a standing rule in the middle, a declined tool call, a
// plan whose items are done, cancelled and dropped, a last question answered at the very end.
// bench/quality/agentFiles.ts writes a story out; rawFacts.ts reads the files back on its own.

/** A deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Call =
  | { kind: 'read'; path: string; output: string }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'edit'; path: string; before: string; after: string }
  | { kind: 'run'; command: string; output: string; error: boolean }
  | { kind: 'plan'; items: { text: string; status: 'pending' | 'in_progress' | 'completed' }[] }
  /** An edit the person declines; the next request says why. */
  | { kind: 'declined'; path: string; before: string; after: string };

export interface Turn {
  /** What the person typed. */
  request: string;
  calls: Call[];
  answer: string;
}

export interface Story {
  name: string;
  /** Folders written with backslashes (a Windows machine). */
  windows: boolean;
  cwd: string;
  turns: Turn[];
  /** Files the IDE shows as open (Codex IDE context). */
  tabs: string[];
}

const FILES = [
  'apps/web/app/(protected)/settings/teams/components/TeamSheet.tsx',
  'apps/web/app/(protected)/settings/[teamId]/page.tsx',
  'apps/web/app/(marketing)/pricing/page.tsx',
  'apps/web/lib/auth/session.ts',
  'apps/web/lib/db/teams.ts',
  'packages/ui/src/components/sheet.tsx',
  'packages/ui/src/components/button.tsx',
  'src/lib/auth.ts',
  'src/lib/rate-limit.ts',
  'src/server/routes/invoices.ts',
  'src/server/jobs/sync-members.ts',
  'tests/e2e/team-settings.spec.ts',
  'scripts/seed-teams.mjs',
  'prisma/schema.prisma',
  'README.md',
  'go.mod',
];

const FEATURES = [
  'close the team sheet when the team is saved and show a toast',
  'add rate limiting to the invoices endpoint, 30 requests per minute per team',
  'let owners transfer a team to another member',
  'paginate the members list on the team settings page',
  'send a weekly digest email to team admins',
  'store the session in an encrypted cookie instead of local storage',
  'retry the member sync job with exponential backoff',
  'show the pricing page in the visitor currency',
];

const RULES = [
  'From now on, keep every public function documented with a JSDoc comment that names its parameters, its return value and the errors it throws, and never merge a change that leaves one of them undocumented, even when the function is only used in tests or in a script that runs once.',
  'Never run the database migrations against the shared staging database; use the local Docker database for every migration and every seed, and ask me before anything touches staging.',
  'Always run the type checker and the unit tests before you tell me something works, and paste the last lines of their output.',
  'Going forward, use pnpm for every install and every script, never npm or yarn, because the lockfile in this repository is pnpm-lock.yaml and the CI installs with pnpm.',
  'Make sure to keep the Tailwind classes in the order the prettier plugin sorts them, and do not add new colours outside the design tokens in packages/ui.',
  'From now on, keep every commit small and focused on one change, write its message in the imperative mood with a scope prefix such as feat(teams) or fix(auth), mention the ticket number from the branch name in the body, never mix formatting changes with logic changes in the same commit, and squash the fixup commits before you ask me to review, because the release notes are generated from these messages and the reviewers read them one by one.',
];

const FILLER = [
  'The settings area is used by about four hundred teams a day, and most of them have fewer than twenty members, but a few enterprise teams have more than two thousand.',
  'We already tried to fix this last sprint and the fix was reverted because it broke the invite flow for people who had not accepted their invitation yet.',
  'The designers want the sheet to feel instant, so any spinner that shows for less than two hundred milliseconds should not show at all.',
  'Please look at how the billing page does it, because that one was reviewed by the security team and we want the same pattern everywhere.',
  'The product manager asked for this to be behind the team-settings-v2 flag until the end of the month, so keep the old path working.',
  'Keep the change small enough to review in one sitting; if it needs a migration, split the migration into its own commit.',
  'There is an older ticket about this, ENG-2291, which has screenshots of the broken state on Safari 17.',
];

const ERRORS = [
  "error TS2339: Property 'members' does not exist on type 'Team'.",
  "TypeError: Cannot read properties of undefined (reading 'ownerId')",
  'Error: connect ECONNREFUSED 127.0.0.1:5432',
  "error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.",
];

const QUESTIONS = [
  'Before you go on: why did the invite test fail only on CI and not on my machine?',
  'What exactly changed in the session cookie, and do existing users get logged out?',
  'Can you explain why the members query is slow for the enterprise teams?',
];

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

function codeLines(rnd: () => number, path: string, n: number): string {
  const name = path
    .replace(/^.*[\\/]/, '')
    .replace(/\..*$/, '')
    .replace(/[^\w]/g, '');
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    const k = Math.floor(rnd() * 1000);
    out.push(
      i % 9 === 1
        ? `export function ${name}Step${i}(input: Input${k}): Promise<Result${k}> {`
        : i % 9 === 0
          ? '}'
          : `  const value${i} = await client.${pick(rnd, ['get', 'list', 'update', 'check'])}(input.id, { limit: ${k} });`,
    );
  }
  return out.join('\n');
}

function longRequest(rnd: () => number, feature: string, rule: string | undefined, file: string): string {
  const parts = [`I need you to ${feature}.`, `The code is in ${file}.`];
  for (let i = 0; i < 3; i++) parts.push(pick(rnd, FILLER));
  if (rule) parts.push(rule);
  for (let i = 0; i < 6; i++) parts.push(pick(rnd, FILLER));
  parts.push('Tell me when the tests pass.');
  return parts.join(' ');
}

/** A session of `turns` rounds, its details drawn from `seed`. */
export function story(name: string, seed: number, turns: number, windows = false): Story {
  const rnd = random(seed);
  const files = FILES.filter(() => rnd() < 0.75);
  const file = () => pick(rnd, files.length > 3 ? files : FILES);
  const features = [...FEATURES].sort(() => rnd() - 0.5);
  const rules = [...RULES].sort(() => rnd() - 0.5);
  // A message that opens with a long rule (one run-on sentence): its shortest forms must not cut it.
  const longest = [...RULES].sort((a, b) => b.length - a.length)[0]!;
  const out: Turn[] = [];
  const plan = features
    .slice(0, 4)
    .map((f) => ({ text: f.charAt(0).toUpperCase() + f.slice(1), status: 'pending' as 'pending' | 'in_progress' | 'completed' }));
  let cancelled: string | undefined;
  for (let t = 0; t < turns; t++) {
    const last = t === turns - 1;
    const calls: Call[] = [];
    let request: string;
    if (t === 0) request = longRequest(rnd, features[0]!, rules[0], file());
    else if (last) request = pick(rnd, QUESTIONS);
    else if (t === 2) request = longRequest(rnd, features[1]!, rules[1], file());
    else if (t === Math.floor(turns / 2)) {
      cancelled = plan[3]!.text;
      request = `Cancel the plan to ${features[3]}, we will not do that in this project. ${pick(rnd, FILLER)}`;
    } else if (t === 4) request = `${longest} ${pick(rnd, FILLER)} Now continue with ${features[2]}.`;
    else request = rnd() < 0.3 ? 'ok, go on' : `Next, ${pick(rnd, features)} — start with ${file()}.`;
    if (t === 0 || t === 3 || t === Math.floor(turns / 2) + 1 || t === turns - 3) {
      const active = plan.findIndex((p) => p.status !== 'completed' && p.text !== cancelled);
      if (t > 0 && active >= 0) plan[active]!.status = 'completed';
      const next = plan.findIndex((p) => p.status === 'pending' && p.text !== cancelled);
      if (next >= 0) plan[next]!.status = 'in_progress';
      calls.push({ kind: 'plan', items: plan.filter((p) => p.text !== cancelled || t < Math.floor(turns / 2)).map((p) => ({ ...p })) });
    }
    if (!last) {
      const reads = 1 + Math.floor(rnd() * 3);
      for (let i = 0; i < reads; i++) {
        const p = file();
        calls.push({ kind: 'read', path: p, output: codeLines(rnd, p, 40 + Math.floor(rnd() * 80)) });
      }
      if (t === 5) {
        const p = 'go.mod';
        calls.push({ kind: 'declined', path: p, before: 'go 1.21', after: 'go 1.23' });
      } else if (rnd() < 0.5) {
        const p = `apps/web/app/(protected)/settings/teams/components/${pick(rnd, ['Members', 'Invites', 'Danger'])}Panel${t}.tsx`;
        calls.push({ kind: 'write', path: p, content: codeLines(rnd, p, 25) });
      } else {
        const p = file();
        calls.push({
          kind: 'edit',
          path: p,
          before: 'const value1 = await client.get(input.id);',
          after: 'const value1 = await client.get(input.id, { signal });',
        });
      }
      const fail = rnd() < 0.35;
      calls.push({
        kind: 'run',
        command: pick(rnd, ['pnpm test -- --run team', 'pnpm tsc --noEmit', 'pnpm vitest run tests/unit', 'pnpm lint']),
        output: fail
          ? `${pick(rnd, ERRORS)}\n${codeLines(rnd, 'trace', 12)}`
          : ` ✓ ${20 + Math.floor(rnd() * 40)} tests passed\n Duration ${Math.floor(rnd() * 9)}.${Math.floor(rnd() * 9)}s`,
        error: fail,
      });
    }
    const answer = last
      ? 'The invite test depends on the clock: on CI the container runs in UTC, so the invitation expired one hour early. I have not changed anything for this yet.'
      : `Done with this step: ${pick(rnd, ['the sheet closes on save', 'the endpoint is limited', 'the members list pages by 50', 'the job retries three times'])}. ${pick(rnd, FILLER)}`;
    out.push({ request, calls, answer });
  }
  const cwd = windows ? 'C:\\Users\\dev\\src\\teams-app' : '/home/dev/src/teams-app';
  const w = (p: string) => (windows ? p.replace(/\//g, '\\') : p);
  for (const turn of out) for (const c of turn.calls) if ('path' in c) (c as { path: string }).path = w(c.path);
  return { name, windows, cwd, turns: out, tabs: files.slice(0, 4).map(w) };
}
