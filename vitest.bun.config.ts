import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:bun`: the suite on Bun, `bun --bun vitest run -c vitest.bun.config.ts`, with the
// same engines (PostgreSQL, PGlite, Redis, Chromium). Every test file runs, and every child
// process a test starts runs on Bun too (process.execPath), except what is left out below,
// each for the reason given. Checked with Bun 1.4.5.

/** Whole files left out. */
const files = [
  // keelson/cluster refuses to start on Bun (test/bun/refusals.test.ts checks the refusal).
  'test/integrations/cluster.test.ts',
  // A budget for tsc's type-checking time: the same on any runtime, checked by `npm test`.
  'test/client/client-scale.test.ts',
  // The Bun engine behind a stand-in for the Bun global, for Node: Bun's own global is
  // read-only. On Bun, test/engines/bun.test.ts runs the engine behind the real Bun.serve.
  'test/engine/bun/served.test.ts',
];

/** Single tests left out, by a part of their name. */
const tests = [
  // Type checks of generated clients with the TypeScript compiler: the same on any runtime,
  // checked by `npm test`, and 15-20 s each.
  'has a generated client that type-checks the example client',
  'gives types that compile under strict and describe the operations',
  // Bun's module.register() is a no-op (oven-sh/bun#35690), so a loader hook cannot hide an
  // installed package to show the "npm install <peer>" error; importPeer's own tests still run.
  'fails to import with an error naming npm install jose',
  'fails naming the package and its install command',
  // Bun's ws keeps delivering the messages it already read after pause(): a burst is closed
  // with 1008 past maxQueued instead of being slowed (docs/guide/bun.md).
  'stops reading while maxQueued messages wait',
  // Bun's node:http emits 'finish' once the body is buffered, not sent (oven-sh/bun#43155):
  // shutdown cannot wait for a response still going out to a slow reader (docs/guide/bun.md).
  'lets a response in flight to a slow reader finish before exiting',
  'cuts off a response still being sent at the deadline',
  // The same buffering hides a stalled reader from sendTimeoutMs, for HTTP and WebSockets.
  'drops a client that reads nothing of a large response',
  'drops a client that reads nothing of what the server sends',
  // Bun's node:http emits 'connection' only when the first request arrives, so a connection
  // that sent nothing yet is not counted (it closes when the process exits).
  'sees the real connections, and the response a connection is serving',
];

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default mergeConfig(
  base,
  defineConfig({
    test: {
      // And `keelson new` on Bun, end to end (needs dist/: `npm run build`).
      include: ['test/bun/**/*.e2e.ts'],
      exclude: files,
      testNamePattern: new RegExp(`^(?!.*(?:${tests.map(literal).join('|')}))`),
      // Types do not depend on the runtime: `npm test` checks them on Node.js.
      typecheck: { enabled: false },
      // Under Bun, Vitest's default interop drops the named exports of a module that also has
      // `export *` (zod's `z`): oven-sh/bun#21614, #39866.
      deps: { interopDefault: false },
    },
  }),
);
