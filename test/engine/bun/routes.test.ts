import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { del, get, head, options, patch, post, put } from '../../../src/index.js';
import { answers, expectSame, expectSameLogs, logged, seen, type Twin, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

const Item = z.object({ id: z.string(), n: z.number() });

function routes() {
  return twin({}, (app) =>
    app.addRoutes(
      get('/plain', () => ({ ok: true })),
      get(
        '/items/:id',
        {
          params: z.object({ id: z.string().regex(/^\d+$/) }),
          query: z.object({ n: z.coerce.number().int().optional() }),
          responses: { 200: Item },
        },
        (c) => ({ id: c.params.id, n: c.query.n ?? 0, secret: 'kept out' }) as never,
      ),
      post('/items', { body: Item, responses: { 201: Item } }, (c) => c.body),
      put('/items/:id', { body: Item }, (c) => ({ ...c.body, id: c.params.id })),
      patch('/items/:id', () => undefined),
      del('/items/:id', { responses: { 204: z.undefined() } }, () => undefined),
      get('/string', () => 'a string'),
      get('/text', (c) => {
        c.header('content-type', 'text/plain; charset=utf-8');
        return 'plain';
      }),
      get('/bytes', () => Buffer.from([1, 2, 3, 250])),
      get('/null', () => null),
      get('/vnd', (c) => {
        c.header('content-type', 'application/vnd.x+json');
        return { v: 1 };
      }),
      post('/alias', (c) => {
        c.reply.status(201);
        return 'made';
      }),
      get('/undefined', () => undefined),
      get('/status', (c) => {
        c.header('x-custom', 'yes');
        return c.status(202, { accepted: true });
      }),
      get('/wild/*', (c) => c.params),
      get('/head-too', () => ({ big: 'x'.repeat(50) })),
      head('/own-head', (c) => {
        c.header('x-own', '1');
        return undefined;
      }),
      get('/own-head', () => 'the get'),
      options('/caps', () => ({ formats: ['json'] })),
    ),
  );
}

describe('routes on the Bun engine answer as on the Fastify engine', () => {
  // Each test its own apps: a mutant in the mount is then run against every test.
  let t: Twin;
  beforeEach(() => {
    t = routes();
  });
  afterEach(() => expectSameLogs(t));

  it('a plain route, params, query and the response schema stripping unknown fields', async () => {
    const plain = await answers(t, '/plain');
    expect(seen(plain.bun)).toEqual(seen(plain.fastify));
    // Connection: close is for the drain only (light-my-request adds its own keep-alive).
    expect(plain.bun.headers.connection).toBeUndefined();
    const res = await expectSame(t, '/items/42?n=7');
    expect(res.json()).toEqual({ id: '42', n: 7 });
    await expectSame(t, '/items/%34%32');
  });

  it('422 for bad params, query and body, naming the fields', async () => {
    const params = await expectSame(t, '/items/abc');
    expect(params.statusCode).toBe(422);
    expect((await expectSame(t, '/items/1?n=1.5')).statusCode).toBe(422);
    const body = await expectSame(t, {
      method: 'POST',
      url: '/items',
      payload: { id: 1, n: 'x' },
    });
    expect(body.statusCode).toBe(422);
    expect((await expectSame(t, { method: 'POST', url: '/items' })).statusCode).toBe(422);
  });

  it('201 for a POST with a 201 schema, the body validated and serialized', async () => {
    const res = await expectSame(t, {
      method: 'POST',
      url: '/items',
      payload: { id: 'a', n: 1, extra: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: 'a', n: 1 });
    await expectSame(t, { method: 'PUT', url: '/items/9', payload: { id: 'a', n: 2 } });
  });

  it('204 for undefined, on DELETE and on a plain PATCH', async () => {
    expect((await expectSame(t, { method: 'DELETE', url: '/items/1' })).statusCode).toBe(204);
    expect((await expectSame(t, { method: 'PATCH', url: '/items/1' })).statusCode).toBe(204);
    expect((await expectSame(t, '/undefined')).statusCode).toBe(204);
  });

  it('strings, bytes, null and a status and header set by the handler', async () => {
    expect((await expectSame(t, '/string')).json()).toBe('a string');
    expect((await expectSame(t, '/text')).body).toBe('plain');
    const bytes = await expectSame(t, '/bytes');
    expect([...bytes.rawPayload]).toEqual([1, 2, 3, 250]);
    expect((await expectSame(t, '/null')).body).toBe('null');
    expect((await expectSame(t, '/vnd')).headers['content-type']).toMatch(
      /^application\/vnd\.x\+json/,
    );
    expect((await expectSame(t, { method: 'POST', url: '/alias' })).statusCode).toBe(201);
    // A GET's body is not read, whatever its type.
    const getBody = await expectSame(t, {
      method: 'GET',
      url: '/plain',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(getBody.statusCode).toBe(200);
    const status = await expectSame(t, '/status');
    expect(status.statusCode).toBe(202);
    expect(status.headers['x-custom']).toBe('yes');
    expect((await expectSame(t, '/wild/a/b')).json()).toEqual({ '*': 'a/b' });
  });

  it('404 for an unknown path, 405 with Allow for a known path', async () => {
    expect((await expectSame(t, '/nowhere')).statusCode).toBe(404);
    const res = await expectSame(t, { method: 'DELETE', url: '/plain' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    const items = await expectSame(t, { method: 'POST', url: '/items/1' });
    expect(items.headers.allow).toBe('DELETE, GET, HEAD, PATCH, PUT');
    await expectSame(t, { method: 'PUT', url: '/nowhere' });
    for (const url of ['/plain/', '/PLAIN', '/plain?', '/plain?a=1&a=2', '/items/%2F']) {
      await expectSame(t, url);
    }
  });

  it('an over-long parameter is a 414', async () => {
    expect((await expectSame(routes(), `/items/${'1'.repeat(101)}`)).statusCode).toBe(414);
  });

  it('a bad URL is a 400, with no CORS headers', async () => {
    expect((await expectSame(routes(), '/items/%E0%A4%A')).statusCode).toBe(400);
  });

  it('bad URLs and over-long parameters answer as on the Fastify engine, and are logged', async () => {
    const u = routes();
    await expectSame(u, '/items/%E0%A4%A');
    await expectSame(u, `/items/${'1'.repeat(101)}`);
    // 100 characters is the longest a parameter may be.
    expect((await expectSame(u, `/items/${'1'.repeat(100)}`)).statusCode).toBe(200);
    const entries = logged(u.bun.lines);
    expect(entries.map((e) => e.path)).toEqual([
      '/items/%E0%A4%A',
      `/items/${'1'.repeat(101)}`,
      `/items/${'1'.repeat(100)}`,
    ]);
  });

  it('HEAD of a GET: the headers without the body; an own HEAD route wins', async () => {
    const res = await expectSame(t, { method: 'HEAD', url: '/head-too' });
    expect(res.body).toBe('');
    expect(res.statusCode).toBe(200);
    const own = await expectSame(t, { method: 'HEAD', url: '/own-head' });
    expect(own.headers['x-own']).toBe('1');
    await expectSame(t, { method: 'HEAD', url: '/nowhere' });
  });

  it("OPTIONS: an app's own OPTIONS route runs; without one, 204 with Allow or 404", async () => {
    expect((await expectSame(t, { method: 'OPTIONS', url: '/caps' })).json()).toEqual({
      formats: ['json'],
    });
    const plain = await expectSame(t, { method: 'OPTIONS', url: '/plain' });
    expect([plain.statusCode, plain.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect((await expectSame(t, { method: 'OPTIONS', url: '/nowhere' })).statusCode).toBe(404);
  });
});
