import { defineConfig } from 'vitest/config';

// The first testDatabase() of a run starts an embedded PostgreSQL and migrates it (a few
// seconds; later ones copy it), so hooks and tests get a minute. On Bun (`bun --bun run test`),
// Vitest's default interop would lose zod's named export `z` (oven-sh/bun#21614): it is off.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...(process.versions.bun === undefined ? {} : { deps: { interopDefault: false } }),
  },
});
