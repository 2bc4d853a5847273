import { beforeEach, describe, expect, it, vi } from 'vitest';
import { del, get, post } from '../../../src/index.js';
import { expectSame, type Twin, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

// app.inject() on the Bun engine takes light-my-request's options: each shape compared.
const echo = () =>
  twin({}, (app) =>
    app.addRoutes(
      get('/q', (c) => ({ query: c.query, url: c.request.url })),
      post('/echo', (c) => ({ body: c.body ?? null, type: c.request.headers['content-type'] })),
      del('/echo', (c) => ({ body: c.body ?? null })),
      get('/h', (c) => ({ a: c.request.headers['x-a'] ?? null, m: c.request.method })),
    ),
  );

describe("app.inject() on the Bun engine takes the Fastify engine's options", () => {
  // Each test its own apps: a mutant in the mount is then run against every test.
  let t: Twin;
  beforeEach(() => {
    t = echo();
  });

  it('a query as an object (lists repeated), as a string, and in the URL', async () => {
    const res = await expectSame(t, { url: '/q', query: { a: '1', b: ['2', '3'] } });
    expect(res.json()).toEqual({ query: { a: '1', b: ['2', '3'] }, url: '/q?a=1&b=2&b=3' });
    await expectSame(t, { url: '/q', query: 'x=1&y=2' });
    await expectSame(t, '/q?z=9');
    await expectSame(t, { path: '/q?p=1' } as never);
    await expectSame(t, { url: { pathname: '/q' } as never });
    await expectSame(t, { url: '/q' });
  });

  it('payloads: an object as JSON, a string, a Buffer, a type of its own', async () => {
    const json = await expectSame(t, { method: 'POST', url: '/echo', payload: { a: [1] } });
    expect(json.json()).toEqual({ body: { a: [1] }, type: 'application/json' });
    await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'text',
    });
    await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.from('{"b":2}'),
    });
    await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: { c: 3 },
    });
    await expectSame(t, { method: 'POST', url: '/echo', body: { d: 4 } } as never);
    await expectSame(t, { method: 'DELETE', url: '/echo', payload: { e: 5 } });
    await expectSame(t, { method: 'POST', url: '/echo', payload: null as never });
  });

  it('a lower-case method, a header list', async () => {
    const res = await expectSame(t, {
      method: 'get' as never,
      url: '/h',
      headers: { 'x-a': ['1', '2'] },
    });
    expect(res.json()).toEqual({ a: '1, 2', m: 'GET' });
  });

  it('request headers: a repeated Set-Cookie stays a list', async () => {
    const t2 = twin({}, (app) =>
      app.addRoutes(get('/sc', (c) => c.request.headers['set-cookie'] ?? null)),
    );
    const res = await expectSame(t2, { url: '/sc', headers: { 'set-cookie': ['a=1', 'b=2'] } });
    expect(res.json()).toEqual(['a=1', 'b=2']);
  });

  it('a header given as undefined is left out (light-my-request refuses it)', async () => {
    const res = await t.bun.app.inject({ url: '/h', headers: { 'x-a': undefined as never } });
    expect(res.json()).toEqual({ a: null, m: 'GET' });
  });

  it('the answer read as light-my-request reads it', async () => {
    const res = await t.bun.app.inject({ method: 'POST', url: '/nowhere' });
    expect(res.statusMessage).toBe('Not Found');
    expect(res.rawPayload.toString()).toBe(res.payload);
    expect(res.body).toBe(res.payload);
    expect(() => res.stream()).toThrow('stream() is not available from the Bun engine');
    expect(res.cookies).toEqual([]);
  });

  it('a string payload with no content-type is sent with none', async () => {
    await expectSame(t, { method: 'POST', url: '/echo', payload: '{"a":1}' });
  });

  it('a path that starts with two slashes', async () => {
    await expectSame(t, '//q');
  });
});
