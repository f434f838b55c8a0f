// `npm run bench`: speed figures as medians and ratios against baselines measured in the same
// run. Each section lives in bench/sections/<name>.ts and exports `run(): Promise<BenchSection>`;
// add one with one line in SECTIONS below.
//
//   node --expose-gc dist/bench/speed.js              every section
//   node --expose-gc dist/bench/speed.js tokens       only the named sections

import { CHILD_FLAG } from './lib/child';
import { renderSection, type BenchSectionModule } from './lib/section';

const SECTIONS: [name: string, load: () => Promise<BenchSectionModule>][] = [
  ['tokens', () => import('./sections/tokens')],
  ['analyze', () => import('./sections/analyze')],
  ['compaction', () => import('./sections/compaction')],
  ['webview', () => import('./sections/webview')],
  ['scale', () => import('./sections/scale')],
  ['meter', () => import('./sections/meter')],
  ['hook', () => import('./sections/hook')],
  ['limits', () => import('./sections/limits')],
];

async function runChildTask(args: string[]): Promise<void> {
  const [sectionName, task, ...rest] = args;
  const entry = SECTIONS.find(([name]) => name === sectionName);
  const fn = entry && (await entry[1]()).child?.[task ?? ''];
  if (!fn) throw new Error(`bench: no child task "${task}" in section "${sectionName}"`);
  console.log(JSON.stringify(await fn(rest)));
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === CHILD_FLAG) {
    await runChildTask(argv.slice(1));
    return 0;
  }
  const wanted = argv.filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !SECTIONS.some(([name]) => name === w));
  if (unknown.length) {
    console.error(`bench: unknown section ${unknown.join(', ')}; sections: ${SECTIONS.map(([n]) => n).join(', ')}`);
    return 2;
  }
  const chosen = SECTIONS.filter(([name]) => wanted.length === 0 || wanted.includes(name));
  if (!(globalThis as { gc?: unknown }).gc) console.log('(run with node --expose-gc for steadier figures)');
  console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
  const started = performance.now();
  let failed = 0;
  let goals = 0;
  let met = 0;
  for (const [name, load] of chosen) {
    const t0 = performance.now();
    try {
      const section = await (await load()).run();
      console.log(`\n${renderSection(section)}\n  (${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      for (const g of section.goals ?? []) {
        goals++;
        if (g.met) met++;
      }
    } catch (e) {
      failed++;
      console.error(`\n== ${name} == failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(
    `\n${chosen.length - failed}/${chosen.length} sections ran, ${met}/${goals} goals met, ${((performance.now() - started) / 1000).toFixed(1)} s in all`,
  );
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
