import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The reliability suite runs on its own: npm run test:reliability.
    exclude: ['test/reliability/**', 'node_modules/**'],
    reporters: ['default', './test/summary-reporter.ts'],
    // Fails a test in which Keelson answers with a code its error catalogue does not list.
    setupFiles: ['./test/support/problem-codes.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
