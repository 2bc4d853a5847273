import { defineConfig } from 'vitest/config';

// The CLI's end-to-end test: `npm run test:cli` (builds first). It packs this checkout, creates
// a project with it, installs it and runs the project's own commands: a minute or two.
export default defineConfig({
  test: {
    include: ['test/cli/**/*.e2e.ts'],
    reporters: ['default'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
