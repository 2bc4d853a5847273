// A setup file for vitest.force-bun.config.ts: every App a test makes runs on the Bun engine
// unless it names its engine, so the whole existing suite checks the Bun engine against what it
// expects of the Fastify one.
import { vi } from 'vitest';
import type { AppOptions } from '../../src/app-options.js';

vi.mock('../../src/app-engine.js', async (original) => {
  const mod = (await original()) as typeof import('../../src/app-engine.js');
  return {
    ...mod,
    engineFor: (options: AppOptions, ...rest: [never, never]) =>
      mod.engineFor({ engine: 'bun', ...options }, ...rest),
  };
});
