// How long a whole `tsc --noEmit` takes on a typed-client file of 20 calls as the API grows.
//   npx tsx bench/client-types.ts [100 500 1000]
// Generates an API of N routes (40 % POST with a body, 40 % GET, the rest PUT/PATCH/DELETE, each
// with zod schemas of its own) and the client file (10 POST with a body, 10 GET) under .tmp/,
// type-checks it three times and prints the best CPU and wall times (CPU through /usr/bin/time)
// and the instantiation count (the same on every machine). `CALLS=0` measures the API alone.
// The generator is test/client/scale-fixture.ts, which the scale test uses too.
import { checkScaleProject, postCount } from '../test/client/scale-fixture.js';

const sizes = process.argv.slice(2).map(Number);
const calls = Number(process.env.CALLS ?? 20);
console.log(
  '| routes | POST routes | tsc CPU s, best of 3 | wall s, best of 3 | instantiations | result |',
);
console.log(
  '| -----: | ----------: | -------------------: | ----------------: | -------------: | ------ |',
);
for (const n of sizes.length ? sizes : [100, 500, 1000]) {
  const runs = [0, 1, 2].map(() => checkScaleProject(n, calls));
  const best = Math.min(...runs.map((r) => r.seconds));
  const cpu = Math.min(...runs.map((r) => r.cpuSeconds));
  const first = runs[0]!;
  const result = first.errors.length ? `fails: ${first.errors.join(', ')}` : 'compiles';
  const count = first.instantiations.toLocaleString('en-US');
  console.log(
    `| ${n} | ${postCount(n)} | ${cpu.toFixed(2)} | ${best.toFixed(2)} | ${count} | ${result} |`,
  );
}
