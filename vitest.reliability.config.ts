import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: load, faults and bad input, kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    reporters: ['default', './test/reliability/reporter.ts'],
    // The memory check compares heaps after a full collection.
    execArgv: ['--expose-gc'],
    // Files run one at a time: their child processes and load share the machine's cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 30_000,
  },
});
