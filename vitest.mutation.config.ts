import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant (`npm run test:mutation`): the in-process suite.
// Type tests are left out (a mutant of src/ cannot change a type test's verdict) and so are the
// tests that drive a child process or a browser: the runner cannot see which mutants those
// cover, and they would multiply the run's time.
// Stryker's vitest runner runs the tests in worker threads, where assigning process.env.TZ does
// not change the time zone: the text-format tests expect Kolkata, so the workers start in it.
process.env.TZ = 'Asia/Kolkata';

export default defineConfig({
  test: {
    // MUTATION_TESTS=test/auth/**,test/config/** narrows the run to a module's own tests
    // (comma-separated globs). Stryker's --testFiles does the same for most mutants, but not for
    // the static ones (module-level code), which it then runs with no test and reports survived.
    include: process.env.MUTATION_TESTS?.split(',') ?? ['test/**/*.test.ts'],
    exclude: [
      'test/reliability/**',
      'test/docs/browser.test.ts',
      'test/docs/example-client.test.ts',
      'test/lifecycle.test.ts',
      'test/logger/process.test.ts',
      'test/lockfile.test.ts',
      'node_modules/**',
    ],
    // A test sets process.env.TZ: each file in its own process keeps that from leaking.
    pool: 'forks',
    typecheck: { enabled: false },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
