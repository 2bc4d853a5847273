import { tmpdir } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import type { App, AppOptions } from '../../../src/index.js';
import { file, get, multipart, post, ws } from '../../../src/index.js';
import { EngineUnsupportedError } from '../../../src/runtime.js';
import { testApp } from '../../app/helpers.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

/** What `act` throws (or rejects with). */
async function thrown(act: () => unknown): Promise<unknown> {
  try {
    await act();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

function expectRefusal(err: unknown, feature: string | RegExp) {
  expect(err).toBeInstanceOf(EngineUnsupportedError);
  const refusal = err as EngineUnsupportedError;
  expect(refusal.code).toBe('KEELSON_ENGINE_UNSUPPORTED');
  expect(refusal.engine).toBe('bun');
  expect(refusal.feature).toMatch(feature);
  expect(refusal.message).toMatch(/is not available on the Bun engine \(engine: 'bun'\)/);
  expect(refusal.message).toMatch(/leave out `engine: 'bun'`/);
}

const bunApp = (options: Partial<AppOptions> = {}): App =>
  testApp({ ...options, engine: 'bun' }).app;

describe('the Bun engine refuses what it does not serve, by name', () => {
  it.each([
    [
      'a CSP computed per request',
      {
        helmet: {
          contentSecurityPolicy: { directives: { scriptSrc: [() => "'nonce-abc'"] } },
        },
      },
      'helmet options computed per request',
    ],
  ] as const)('%s, when the app is created', async (_name, options, feature) => {
    expectRefusal(await thrown(() => bunApp(options as Partial<AppOptions>)), feature);
  });

  it('serves the cookies, compress and devPanel options (no refusal)', async () => {
    const app = bunApp({
      compress: true,
      devPanel: true,
      cookies: { secret: 'x'.repeat(32) },
    } as unknown as Partial<AppOptions>);
    app.addRoutes(get('/a', () => 1));
    expect((await app.inject('/a')).statusCode).toBe(200);
    expect((await app.inject('/_keelson/api/state')).statusCode).toBe(200);
  });

  it('app.static(), when called', async () => {
    expectRefusal(await thrown(() => bunApp().static('/files', tmpdir())), 'Static files');
  });

  it.each([
    ['a WebSocket route', ws('/live', { onMessage: () => {} }), 'WebSocket routes (GET /live)'],
    [
      'a multipart body',
      post('/up', { body: multipart({ pic: file() }) }, () => 1),
      'Uploads, multipart bodies (POST /up)',
    ],
    ['a cors origin function', get('/o', () => 1), 'A cors origin function'],
  ] as const)('%s, when the app starts', async (name, route, feature) => {
    const app = bunApp(name === 'a cors origin function' ? { cors: { origin: () => true } } : {});
    app.addRoutes(route as never);
    expectRefusal(await thrown(() => app.ready()), feature);
    expectRefusal(await thrown(() => app.inject('/o')), feature);
  });

  it('reply.hijack() from a handler is a 500 naming the feature', async () => {
    const { app, lines } = testApp({ engine: 'bun' });
    app.addRoutes(get('/hijack', (c) => (c.reply as unknown as { hijack(): unknown }).hijack()));
    expect((await app.inject('/hijack')).statusCode).toBe(500);
    const errors = lines.map((l) => String((JSON.parse(l) as { error?: string }).error));
    expect(errors[0]).toMatch(/reply\.hijack\(\) is not available on the Bun engine/);
  });
});

describe('app.engine and app.fastify', () => {
  it('app.engine names the engine; app.fastify throws on the Bun engine', async () => {
    const app = bunApp();
    expect(app.engine.name).toBe('bun');
    expect(() => app.fastify).toThrow(
      "app.fastify: this app runs on the Bun engine (engine: 'bun'), which has no Fastify instance; read app.engine",
    );
    const fastify = testApp({ engine: 'fastify' }).app;
    expect(fastify.engine.name).toBe('fastify');
    expect(fastify.fastify).toBeDefined();
    expect(testApp().app.engine.name).toBe('fastify');
  });

  it('the Bun engine has no server before it listens', () => {
    const info = bunApp().engine;
    expect(info.name === 'bun' && info.server).toBeFalsy();
  });

  it('refuses an engine it does not know', () => {
    expect(() => testApp({ engine: 'deno' as never })).toThrow(
      new TypeError("engine must be 'fastify' or 'bun', got deno"),
    );
  });

  it('refuses a bad timeoutMs on the Bun engine as on the Fastify engine', () => {
    const messages = (['bun', 'fastify'] as const).map((engine) => {
      try {
        testApp({ engine, timeoutMs: -1 });
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    });
    expect(messages[0]).toMatch(/new App\(\).*timeoutMs/);
    expect(messages[0]).toBe(messages[1]);
  });
});
