import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:bun`: the suite on Bun (`bun --bun vitest run -c vitest.bun.config.ts`).
export default mergeConfig(
  base,
  defineConfig({
    test: {
      // Types were checked on Node; the runtime does not change them.
      typecheck: { enabled: false },
      deps: { interopDefault: false },
    },
  }),
);
