import { defineConfig } from 'vitest/config';

// The docs site in Chromium: `npm run test:docs` builds the site (`npm run docs:build`), then
// opens every page of it served on 127.0.0.1 (test/docs-site/site.e2e.ts).
export default defineConfig({
  test: {
    include: ['test/docs-site/**/*.e2e.ts'],
    reporters: ['default'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
