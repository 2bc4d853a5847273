import { describe, expect, it } from 'vitest';
import { App, type AppOptions } from '../../src/index.js';
import { onBun } from '../../src/runtime.js';
import { memoryLogger } from '../app/helpers.js';

// `engine: 'bun'` needs Bun.serve: on Node.js `new App` refuses it at once, naming the option
// and the runtime; on Bun it is taken (test/engines/bun.test.ts runs the engine suite on it).
describe('choosing the engine', () => {
  const base = { serviceName: 'engine-choice', logger: memoryLogger().logger };
  const bun = { ...base, engine: 'bun' } as AppOptions;

  it("refuses engine: 'bun' on Node.js with RuntimeUnsupportedError, and takes it on Bun", () => {
    if (onBun()) {
      const app = new App(bun);
      expect((app as unknown as { engine: { name: string } }).engine.name).toBe('bun');
      return;
    }
    let thrown: unknown;
    try {
      new App(bun);
    } catch (err) {
      thrown = err;
    }
    const runtime = `Node.js ${process.versions.node}`;
    expect(thrown).toMatchObject({
      name: 'RuntimeUnsupportedError',
      code: 'KEELSON_RUNTIME_UNSUPPORTED',
      runtime,
    });
    expect((thrown as Error).message).toContain("engine: 'bun'");
    expect((thrown as Error).message).toContain(runtime);
  });

  it('uses the Fastify engine by default on every runtime', () => {
    const app = new App(base);
    expect(app.fastify.server).toBeDefined();
  });
});
