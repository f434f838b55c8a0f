// `npm run bench`: speed figures as ratios against baselines measured in the same run.
console.log('no benchmarks yet');
