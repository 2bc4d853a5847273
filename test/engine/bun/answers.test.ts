import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RequestMetric } from '../../../src/contracts.js';
import { get, KError, notFound, post } from '../../../src/index.js';
import { answers, ENGINES, expectSame, expectSameLogs, logged, seen, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

const failing = () =>
  twin({}, (app) =>
    app.addRoutes(
      get('/kerror', () => {
        throw new KError({ code: 'OUT_OF_STOCK', statusCode: 409, message: 'No stock left.' });
      }),
      get('/missing', () => {
        throw notFound('No such thing.');
      }),
      get('/bug', () => {
        throw new Error('a bug, with a secret');
      }),
      get('/rejects', async () => {
        await Promise.resolve();
        throw new TypeError('async bug');
      }),
      get('/bigint', () => ({ n: 1n })),
      get('/bad-response', { responses: { 200: z.object({ ok: z.boolean() }) } }, () => ({
        ok: 'no' as unknown as boolean,
      })),
    ),
  );

describe('errors on the Bun engine', () => {
  it('a KError, a plain Error, a rejection, a bigint and a bad response answer and log the same', async () => {
    const t = failing();
    expect((await expectSame(t, '/kerror')).json()).toMatchObject({ code: 'OUT_OF_STOCK' });
    expect((await expectSame(t, '/missing')).statusCode).toBe(404);
    const bug = await expectSame(t, '/bug');
    expect(bug.statusCode).toBe(500);
    expect(bug.body).not.toContain('secret');
    expect((await expectSame(t, '/rejects')).statusCode).toBe(500);
    expect((await expectSame(t, '/bigint')).statusCode).toBe(500);
    expect((await expectSame(t, '/bad-response')).statusCode).toBe(500);
    expectSameLogs(t);
    const entries = logged(t.bun.lines);
    expect(entries.map((e) => e.level)).toEqual([
      'warn',
      'warn',
      'error',
      'error',
      'error',
      'error',
    ]);
    expect(JSON.stringify(entries[2])).toContain('a bug, with a secret');
    expect(JSON.stringify(entries[4])).toMatch(/BigInt/);
  });

  it('problem+json and a custom JSON type carry charset=utf-8', async () => {
    const t = twin({}, (app) =>
      app.addRoutes(
        get('/vnd', (c) => {
          c.header('content-type', 'application/vnd.x+json');
          return { v: 1 };
        }),
      ),
    );
    const missing = await answers(t, '/nowhere');
    expect(missing.bun.headers['content-type']).toBe(missing.fastify.headers['content-type']);
    const vnd = await answers(t, '/vnd');
    expect(vnd.bun.headers['content-type']).toBe(vnd.fastify.headers['content-type']);
  });

  it('inject gives the content-length of the answer', async () => {
    const t = twin({}, (app) => app.addRoutes(get('/a', () => ({ ok: true }))));
    const res = await answers(t, '/a');
    expect(res.bun.headers['content-length']).toBe(res.fastify.headers['content-length']);
  });

  it('inject sends a Host header', async () => {
    const t = twin({}, (app) => app.addRoutes(get('/h', (c) => c.request.hostname)));
    const res = await answers(t, '/h');
    expect(res.bun.body).toBe(res.fastify.body);
  });

  it("inject takes the peer's address from remoteAddress", async () => {
    const t = twin({}, (app) => app.addRoutes(get('/ip', (c) => c.request.ip)));
    const res = await answers(t, { url: '/ip', remoteAddress: '10.0.0.2' });
    expect(res.bun.body).toBe(res.fastify.body);
  });
});

describe('request ids on the Bun engine', () => {
  it('generates one (a UUID), echoes a valid one, replaces an invalid one', async () => {
    const t = twin({}, (app) => app.addRoutes(get('/id', (c) => ({ id: c.requestId }))));
    const res = await answers(t, '/id');
    expect(res.bun.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.bun.json()).toEqual({ id: res.bun.headers['x-request-id'] });
    const echoed = await expectSame(t, { url: '/id', headers: { 'x-request-id': 'abc-1.2:3_x' } });
    expect(echoed.json()).toEqual({ id: 'abc-1.2:3_x' });
    const invalid = await answers(t, { url: '/id', headers: { 'x-request-id': 'no spaces' } });
    expect(invalid.bun.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen(invalid.bun)).toEqual(seen(invalid.fastify));
  });

  it('a header of its own name', async () => {
    const own = twin({ requestId: { header: 'X-Trace' } }, (app) =>
      app.addRoutes(get('/id', (c) => ({ id: c.requestId }))),
    );
    const res = await expectSame(own, { url: '/id', headers: { 'x-trace': 't-1' } });
    expect(res.headers['x-trace']).toBe('t-1');
    expect(res.headers['x-request-id']).toBeUndefined();
  });

  it('requestId: false: no header, none in problems, req-<n> ids', async () => {
    const off = twin({ requestId: false }, (app) =>
      app.addRoutes(
        get('/id', (c) => ({ id: c.requestId })),
        get('/bigint', () => ({ n: 2n })),
      ),
    );
    const res = await expectSame(off, { url: '/id', headers: { 'x-request-id': 'sent' } });
    expect(res.headers['x-request-id']).toBeUndefined();
    expect(res.json()).toEqual({ id: 'req-1' });
    expect((await expectSame(off, '/nowhere')).json()).not.toHaveProperty('requestId');
    // A payload that cannot be serialized is answered through the same path.
    expect((await expectSame(off, '/bigint')).json()).not.toHaveProperty('requestId');
    expect((await expectSame(off, '/id')).json()).toEqual({ id: 'req-4' });
    for (let i = 0; i < 7; i++) await expectSame(off, '/id');
    // Fastify's own ids count in base 36.
    expect((await expectSame(off, '/id')).json()).toEqual({ id: 'req-c' });
  });
});

describe('security headers on the Bun engine', () => {
  it('the default set, helmet options, and none with helmet: false', async () => {
    for (const helmet of [undefined, false, { frameguard: { action: 'sameorigin' } }] as const) {
      const t = twin(helmet === undefined ? {} : { helmet }, (app) =>
        app.addRoutes(get('/a', () => 1)),
      );
      const res = await expectSame(t, '/a');
      expect('x-content-type-options' in res.headers).toBe(helmet !== false);
      await expectSame(t, '/nowhere');
    }
  });
});

describe('the metrics record and the route timeout on the Bun engine', () => {
  it('records each request with its route, status and duration', async () => {
    const records: Record<string, RequestMetric[]> = { fastify: [], bun: [] };
    const t = twin({ timeoutMs: 30 }, (app) =>
      app.addRoutes(
        get('/users/:id', () => ({ ok: true })),
        // Answers once its timeout has aborted it: too late, the 504 is out (one line, one record).
        get('/slow', async (c) => {
          await new Promise((r) => c.signal.addEventListener('abort', r));
          return 'late';
        }),
        get('/quick', { timeoutMs: 0 }, async () => 'no timeout'),
        post('/users/:id', () => 1),
      ),
    );
    for (const engine of ENGINES) {
      t[engine].app.setMetricsCollector({ recordRequest: (m) => records[engine]!.push(m) });
    }
    await expectSame(t, '/users/1?x=y');
    await expectSame(t, '/nowhere');
    const slow = await expectSame(t, '/slow');
    expect(slow.statusCode).toBe(504);
    expect(slow.json()).toMatchObject({ code: 'TIMEOUT' });
    await expectSame(t, '/quick');
    // A body refused before the route runs.
    await expectSame(t, {
      method: 'POST',
      url: '/users/1',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    const shape = (ms: RequestMetric[]) => ms.map(({ durationMs: _d, ...m }) => m);
    expect(shape(records.bun!)).toEqual(shape(records.fastify!));
    expect(shape(records.bun!)[0]).toEqual({ method: 'GET', route: '/users/:id', statusCode: 200 });
    expect(records.bun![2]!.durationMs).toBeGreaterThanOrEqual(25);
    expect(records.bun![2]!.durationMs).toBeLessThan(10_000);
    expectSameLogs(t);
  });

  it("a preflight's record names the CORS plugin's route", async () => {
    const records: Record<string, RequestMetric[]> = { fastify: [], bun: [] };
    const t = twin({}, (app) => app.addRoutes(get('/users/:id', () => 1)));
    for (const engine of ENGINES) {
      t[engine].app.setMetricsCollector({ recordRequest: (m) => records[engine]!.push(m) });
    }
    await expectSame(t, {
      method: 'OPTIONS',
      url: '/users/1',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
    });
    expect(records.bun!.map((m) => m.route)).toEqual(records.fastify!.map((m) => m.route));
  });

  it('deprecation headers, and the deprecated route named in the metrics record', async () => {
    const since = new Date('2026-01-01T00:00:00Z');
    const sunset = new Date('2027-01-01T00:00:00Z');
    const records: Record<string, RequestMetric[]> = { fastify: [], bun: [] };
    const t = twin({}, (app) =>
      app.addRoutes(
        get('/old', { deprecated: { since, sunset, link: '/new', info: '/why' } }, () => 1),
        post('/older', { deprecated: true, operationId: 'older' }, () => 2),
      ),
    );
    for (const engine of ENGINES) {
      t[engine].app.setMetricsCollector({ recordRequest: (m) => records[engine]!.push(m) });
    }
    const old = await expectSame(t, '/old');
    expect(old.headers.deprecation).toBe(`@${since.getTime() / 1000}`);
    expect(old.headers.sunset).toBe(sunset.toUTCString());
    const older = await answers(t, { method: 'POST', url: '/older' });
    expect(older.bun.headers.deprecation).toMatch(/^@\d+$/);
    expect(records.bun!.map((m) => m.deprecated)).toEqual(
      records.fastify!.map((m) => m.deprecated),
    );
    expect(records.bun![1]!.deprecated).toBe('older');
  });
});
