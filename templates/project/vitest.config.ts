import { defineConfig } from 'vitest/config';

// The first testDatabase() of a run starts an embedded PostgreSQL and migrates it (a few
// seconds; later ones copy it), so hooks and tests get a minute.
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
});
