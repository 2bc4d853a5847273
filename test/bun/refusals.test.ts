import { afterEach, describe, expect, it } from 'vitest';
import { onBun } from '../../src/runtime.js';
import { killAll, startLogProcess } from '../support/log-process.js';

// The features Bun cannot run refuse to start there, in a real process of the runtime that runs
// this suite: `npm run test:bun` runs these; on Node.js the feature's own tests run instead.
const clusterService = new URL('../integrations/fixtures/cluster-service.ts', import.meta.url)
  .pathname;

afterEach(() => killAll());

describe.runIf(onBun())('on Bun', () => {
  it('keelson/cluster exits before forking, naming the feature, Bun and what to do', async () => {
    const proc = startLogProcess(clusterService);
    const exit = await proc.exit;
    expect(exit.code).not.toBe(0);
    expect(proc.stderr()).toMatch(
      /keelson\/cluster does not run on Bun \d+\.\d+\.\d+: its node:cluster cannot hand .* run on Node\.js/,
    );
    expect(proc.entries.map((e) => e.message)).toEqual([]);
  });
});
