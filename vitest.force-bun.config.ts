import { defineConfig, mergeConfig } from 'vitest/config';
import bun from './vitest.bun.config.js';

// Not in CI: the whole suite on Bun with every App on the Bun engine (engine: 'bun') unless a
// test names its engine. `bun --bun vitest run -c vitest.force-bun.config.ts`. What fails are
// tests that reach `app.fastify` (Node sockets, Fastify's own server) and features the Bun
// engine refuses (uploads, WebSockets, static files); anything else is a difference between
// the engines to mend. test/engines/ is the suite CI runs on both.
export default mergeConfig(
  bun,
  defineConfig({ test: { setupFiles: ['test/support/force-bun-engine.ts'] } }),
);
