import { describe, expect, it, vi } from 'vitest';
import type { AppOptions } from '../../../src/index.js';
import { del, get, options, post, put } from '../../../src/index.js';
import { EngineUnsupportedError } from '../../../src/runtime.js';
import { testApp } from '../../app/helpers.js';
import { expectSame, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

const WEB = 'https://web.example';
const OTHER = 'https://other.example';

function corsApp(cors: AppOptions['cors']) {
  return twin(cors === undefined ? {} : { cors }, (app) =>
    app.addRoutes(
      get('/items', () => []),
      put('/items/:id', () => 1),
      del('/items/:id', () => 1),
      options('/caps', () => ({ formats: ['json'] })),
    ),
  );
}

const preflight = (url: string, origin: string, extra: Record<string, string> = {}) => ({
  method: 'OPTIONS' as const,
  url,
  headers: { origin, 'access-control-request-method': 'PUT', ...extra },
});

// Every case: a simple request with and without an Origin, a preflight, a preflight asking for
// headers, a plain OPTIONS, the app's own OPTIONS route with a preflight, an unrouted path.
async function expectSameCors(cors: AppOptions['cors']) {
  const t = corsApp(cors);
  const simple = await expectSame(t, { url: '/items', headers: { origin: WEB } });
  await expectSame(t, { url: '/items', headers: { origin: OTHER } });
  await expectSame(t, '/items');
  const pre = await expectSame(t, preflight('/items/1', WEB));
  await expectSame(t, preflight('/items/1', OTHER, { 'access-control-request-headers': 'x-a' }));
  await expectSame(t, { method: 'OPTIONS', url: '/items/1' });
  await expectSame(t, { method: 'OPTIONS', url: '/items/1', headers: { origin: WEB } });
  await expectSame(t, preflight('/caps', WEB));
  await expectSame(t, preflight('/nowhere', WEB));
  await expectSame(t, { url: '/nowhere', headers: { origin: WEB } });
  await expectSame(t, { method: 'POST', url: '/items', headers: { origin: WEB } });
  return { simple, pre };
}

describe('CORS on the Bun engine answers as @fastify/cors on the Fastify engine', () => {
  it('the default: any origin', async () => {
    const { simple, pre } = await expectSameCors(undefined);
    expect(simple.headers['access-control-allow-origin']).toBe('*');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-methods']).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
  });

  it('one origin as a string', async () => {
    const { simple } = await expectSameCors({ origin: WEB });
    expect(simple.headers['access-control-allow-origin']).toBe(WEB);
  });

  it('a list of origins and a RegExp, with Vary: Origin', async () => {
    const { simple } = await expectSameCors({ origin: [WEB, /^https:\/\/x\./] });
    expect(simple.headers['access-control-allow-origin']).toBe(WEB);
    expect(simple.headers.vary).toMatch(/Origin/);
    await expectSameCors({ origin: /^https:\/\/web\.example$/g });
    await expectSameCors({ origin: [OTHER, '*'] });
    await expectSameCors({ origin: true });
    await expectSameCors({ origin: false });
  });

  it('credentials, exposed and allowed headers, max age, methods', async () => {
    const { simple, pre } = await expectSameCors({
      origin: WEB,
      credentials: true,
      exposedHeaders: ['x-total', 'x-page'],
      allowedHeaders: 'content-type, x-a',
      maxAge: 600,
      methods: ['GET', 'PUT'],
    });
    expect(simple.headers['access-control-allow-credentials']).toBe('true');
    expect(simple.headers['access-control-expose-headers']).toBe('x-total, x-page');
    expect(pre.headers['access-control-allow-headers']).toBe('content-type, x-a');
    expect(pre.headers['access-control-max-age']).toBe('600');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, PUT');
    await expectSameCors({ origin: '*', exposedHeaders: 'x-one', allowedHeaders: ['a', 'b'] });
    await expectSameCors({ origin: '*', maxAge: 0, methods: 'GET,POST' });
    await expectSameCors({ origin: '*', credentials: true });
    await expectSameCors({ origin: true, credentials: true, exposedHeaders: [] });
  });

  it('a success status of its own, no preflight, a cache-control', async () => {
    const { pre } = await expectSameCors({ origin: '*', optionsSuccessStatus: 200 });
    expect(pre.statusCode).toBe(200);
    await expectSameCors({ origin: '*', preflight: false });
    await expectSameCors({ origin: '*', cacheControl: 300 });
    await expectSameCors({ origin: '*', cacheControl: 'public, max-age=60' });
  });

  it('the methods of an app without a GET route; options it takes and does not need', async () => {
    const t = twin({}, (app) => app.addRoutes(post('/only', () => 1)));
    const pre = await expectSame(t, preflight('/only', WEB));
    // The built-in routes (health) are GETs.
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
    // The preflight's 204 says its length.
    const bun = await t.bun.app.inject(preflight('/only', WEB));
    expect(bun.headers['content-length']).toBe('0');
    await expectSameCors({ origin: '*', strictPreflight: false, hideOptionsRoute: true });
    await expectSameCors({ origin: '*', logLevel: 'silent' } as never);
  });

  it('cors: false: no CORS headers, a preflight is a plain OPTIONS', async () => {
    const { simple, pre } = await expectSameCors(false);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('adds to a Vary set by the route', async () => {
    const t = twin({ cors: { origin: [WEB] } }, (app) =>
      app.addRoutes(
        get('/v', (c) => {
          c.header('vary', 'Accept-Encoding');
          return 1;
        }),
        get('/star', (c) => {
          c.header('vary', '*');
          return 1;
        }),
      ),
    );
    await expectSame(t, { url: '/v', headers: { origin: WEB } });
    await expectSame(t, { url: '/star', headers: { origin: WEB } });
  });

  it('refuses, by name, an origin function and the options it does not serve', async () => {
    const refused = [
      [
        { origin: () => true } as never,
        /A cors origin function is not available on the Bun engine/,
      ],
      [{ origin: '*', hook: 'preHandler' } as never, /The cors option hook/],
      [{ delegator: () => ({}) } as never, /The cors option delegator/],
    ] as const;
    for (const [cors, message] of refused) {
      const { app } = testApp({ engine: 'bun', cors });
      app.addRoutes(get('/a', () => 1));
      const err = await app.ready().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EngineUnsupportedError);
      expect(err).toMatchObject({ code: 'KEELSON_ENGINE_UNSUPPORTED', engine: 'bun' });
      expect(String(err)).toMatch(message);
    }
  });
});
