import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      // The reliability suite runs on its own: npm run test:reliability.
      'test/reliability/**',
      'node_modules/**',
      // The engine suite on the Bun.serve engine needs Bun (on Node.js `engine: 'bun'` throws):
      // `npm run test:bun` runs it, its config merging this one under Bun, where it stays in.
      ...('bun' in process.versions ? [] : ['test/engines/bun.test.ts']),
    ],
    reporters: ['default', './test/summary-reporter.ts'],
    // Fails a test in which Keelson answers with a code its error catalogue does not list.
    setupFiles: ['./test/support/problem-codes.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    // Two files at a time, whatever the core count: most tests wait on sockets, child processes
    // and databases rather than the CPU (Vitest's default on a 2-core machine is one file at a
    // time; two took the database and lifecycle folders from ~350 s of test time to ~195 s).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
