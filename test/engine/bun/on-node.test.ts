import { describe, expect, it } from 'vitest';
import { get } from '../../../src/index.js';
import { onBun, RuntimeUnsupportedError } from '../../../src/runtime.js';
import { testApp } from '../../app/helpers.js';

// No mock of onBun() here: on Node.js the Bun engine refuses to be made at all.
describe.skipIf(onBun())('the Bun engine on Node.js', () => {
  it('new App({ engine: "bun" }) throws RuntimeUnsupportedError naming Node.js', () => {
    let err: unknown;
    try {
      testApp({ engine: 'bun' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RuntimeUnsupportedError);
    const refusal = err as RuntimeUnsupportedError;
    expect(refusal.code).toBe('KEELSON_RUNTIME_UNSUPPORTED');
    expect(refusal.feature).toBe("engine: 'bun'");
    expect(refusal.runtime).toBe(`Node.js ${process.versions.node}`);
    expect(refusal.message).toBe(
      `engine: 'bun' does not run on Node.js ${process.versions.node}: the Bun engine runs on Bun only; run the service with bun, or leave out \`engine\` (the Fastify engine runs on both)`,
    );
  });

  it('is refused before any other option: the cookies option names the runtime, not the engine', () => {
    expect(() => testApp({ engine: 'bun', cookies: { secret: 'x'.repeat(32) } })).toThrow(
      RuntimeUnsupportedError,
    );
  });

  it('the Fastify engine, named or not, runs', async () => {
    for (const engine of [undefined, 'fastify'] as const) {
      const { app } = testApp(engine ? { engine } : {});
      app.addRoutes(get('/a', () => 1));
      expect((await app.inject('/a')).statusCode).toBe(200);
    }
  });
});
