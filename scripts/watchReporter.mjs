// What `node esbuild.mjs --watch` prints, for people and for the problem matcher of the watch
// task in .vscode/tasks.json (test/repo/devSetup.test.ts checks that the two agree).

/** For --watch: one "[watch] build started" … "[watch] build finished" pair around each round of
 *  (re)builds, and before each "finished" every problem the targets have at that moment, once
 *  each ("[watch] error: FILE:LINE:COLUMN: TEXT"). The targets rebuild one after another, so
 *  each round repeats the others' problems: a round that starts anew clears nothing. The watch
 *  task's problem matcher in .vscode/tasks.json reads exactly these lines; F5 waits for the
 *  first "finished".
 *  @param {number} targetCount how many targets build at the start
 *  @param {(line: string) => void} [log]
 *  @returns {(target: unknown) => import('esbuild').Plugin} the plugin for one target */
export function watchReporter(targetCount, log = console.log) {
  let running = targetCount; // every target's first build, announced here
  const problems = new Map(); // target → its problem lines from its last build
  log('[watch] build started');
  return (target) => ({
    name: 'watch-reporter',
    setup(build) {
      let first = true;
      build.onStart(() => {
        if (first) first = false;
        else if (running++ === 0) log('[watch] build started');
      });
      build.onEnd((result) => {
        const lines = [];
        for (const [severity, messages] of [
          ['error', result.errors],
          ['warning', result.warnings],
        ]) {
          for (const { text, location: at } of messages) {
            lines.push(at ? `[watch] ${severity}: ${at.file}:${at.line}:${at.column + 1}: ${text}` : `[watch] ${severity}: ${text}`);
          }
        }
        problems.set(target, lines);
        if (--running > 0) return;
        for (const line of new Set([...problems.values()].flat())) log(line);
        log('[watch] build finished');
      });
    },
  });
}
