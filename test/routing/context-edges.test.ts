import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Context, get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

// What a handler reads and writes through its context, beyond the typed request parts.

describe('the context', () => {
  it('keeps one signal per request', async () => {
    const { app } = testApp();
    let signal: AbortSignal | undefined;
    app.addRoutes(
      get('/x', (c) => {
        signal = c.signal;
        expect(c.signal).toBe(signal);
        return 'ok';
      }),
    );
    expect((await app.inject('/x')).statusCode).toBe(200);
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it('does not abort the signal of a request whose body was read, over a real socket', async () => {
    const { app } = testApp();
    app.addRoutes(
      post('/echo', { body: z.object({ n: z.number() }) }, (c) => ({
        n: c.body.n,
        aborted: c.signal.aborted,
      })),
      post(
        '/guarded',
        {
          body: z.object({ n: z.number() }),
          middleware: [
            async (c, next) => {
              const answer = await next();
              return { ...(answer as object), after: c.signal.aborted };
            },
          ],
        },
        (c) => ({ n: c.body.n, aborted: c.signal.aborted }),
      ),
    );
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: 1 }),
      });
      expect(await res.json()).toEqual({ n: 1, aborted: false });
      const guarded = await fetch(`http://127.0.0.1:${port}/guarded`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: 2 }),
      });
      expect(await guarded.json()).toEqual({ n: 2, aborted: false, after: false });
    } finally {
      await app.fastify.close();
    }
  });

  it('gives a signal read after the timeout fired, aborted with the timeout', async () => {
    const { app } = testApp();
    let late: Promise<AbortSignal> | undefined;
    app.addRoutes(
      get('/slow', { timeoutMs: 20 }, (c) => {
        late = new Promise((resolve) => setTimeout(() => resolve(c.signal), 60));
        return late.then(() => 'late');
      }),
      get(
        '/quiet',
        { timeoutMs: 20 },
        () => new Promise<string>((r) => setTimeout(() => r('late'), 60)),
      ),
    );
    expect((await app.inject('/slow')).statusCode).toBe(504);
    const signal = await late!;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ statusCode: 504, code: 'TIMEOUT' });
    // A handler that never reads its signal still times out.
    expect((await app.inject('/quiet')).statusCode).toBe(504);
  });

  it('negotiates a language without a translator and answers 204 with noContent', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/lang', (c) => ({ lang: c.lang, t: c.t('hello') })),
      get('/none', (c) => c.noContent()),
    );
    const res = await app.inject({ url: '/lang', headers: { 'accept-language': 'fr' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ t: 'hello' });
    expect((await app.inject('/none')).statusCode).toBe(204);
  });

  it('reads, validates, sets, clears and verifies cookies', async () => {
    const { app } = testApp({ cookies: { secret: 'a-long-enough-secret-for-the-tests-0123' } });
    app.addRoutes(
      get('/raw', (c) => c.cookies),
      get('/typed', { cookies: z.object({ n: z.coerce.number() }) }, (c) => ({ n: c.cookies.n })),
      get('/set', (c: Context) =>
        c.setCookie('plain', 'v').setCookie('sig', 's1', { signed: true }).clearCookie('old'),
      ),
      get('/signed', (c) => ({ sig: c.signedCookie('sig') ?? null })),
    );
    expect((await app.inject({ url: '/raw', headers: { cookie: 'a=1; b=2' } })).json()).toEqual({
      a: '1',
      b: '2',
    });
    expect((await app.inject({ url: '/typed', headers: { cookie: 'n=7' } })).json()).toEqual({
      n: 7,
    });
    const set = await app.inject('/set');
    const cookies = set.cookies as { name: string; value: string }[];
    expect(cookies.map((c) => c.name)).toEqual(['plain', 'sig', 'old']);
    expect(cookies[0]?.value).toBe('v');
    expect(cookies[2]?.value).toBe('');
    const signed = cookies[1]!.value;
    expect(signed).not.toBe('s1');
    const back = await app.inject({ url: '/signed', headers: { cookie: `sig=${signed}` } });
    expect(back.json()).toEqual({ sig: 's1' });
    const forged = await app.inject({ url: '/signed', headers: { cookie: 'sig=s1' } });
    expect(forged.json()).toEqual({ sig: null });
  });

  it('streams server-sent events from a source', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/events', (c) =>
        c.sse(
          (async function* () {
            yield { data: { n: 1 } };
          })(),
        ),
      ),
    );
    const res = await app.inject('/events');
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.body).toContain('data: {"n":1}');
  });
});
