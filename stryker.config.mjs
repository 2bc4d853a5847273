// @ts-check
/**
 * Mutation testing (`npm run test:mutation`): Stryker changes src/ one small mutation at a
 * time and runs the tests that cover it; a mutant no test notices is a gap in the tests.
 * Not part of `npm test`: a full run takes tens of minutes on two cores. Narrow it with
 * `npm run test:mutation -- --mutate src/routing/compose.ts`.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  // index.ts files that only re-export make no mutants; some (rate-limit, cookies) hold code.
  mutate: ['src/**/*.ts', '!src/index.ts', '!src/**/*.d.ts'],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: '.stryker-tmp/report.json' },
  concurrency: 2,
  timeoutMS: 20_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'bench', 'coverage', '.stryker-tmp', 'examples/basic/api.d.ts'],
  thresholds: { high: 90, low: 85, break: null },
};
