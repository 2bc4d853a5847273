import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { del, get, options, post, put } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

describe('answers at the edges', () => {
  it('allows every routed method in a CORS preflight by default, PUT, PATCH and DELETE included', async () => {
    const { app } = testApp();
    app.addRoutes(
      put('/items/:id', () => 1),
      del('/items/:id', () => 1),
      get('/items', () => []),
    );
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/items/1',
      headers: { origin: 'https://web.example', 'access-control-request-method': 'DELETE' },
    });
    expect(res.statusCode).toBe(204);
    const allowed = String(res.headers['access-control-allow-methods']).split(', ');
    for (const m of ['DELETE', 'GET', 'HEAD', 'PUT']) expect(allowed).toContain(m);
  });

  it("runs the app's own OPTIONS route, with CORS headers on a preflight", async () => {
    const { app } = testApp();
    app.addRoutes(options('/caps', () => ({ formats: ['json'] })));
    const plain = await app.inject({ method: 'OPTIONS', url: '/caps' });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({ formats: ['json'] });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/caps',
      headers: { origin: 'https://web.example', 'access-control-request-method': 'OPTIONS' },
    });
    expect(preflight.json()).toEqual({ formats: ['json'] });
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps CORS methods the app gives', async () => {
    const { app } = testApp({ cors: { origin: '*', methods: ['GET'] } });
    app.addRoutes(put('/x', () => 1));
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/x',
      headers: { origin: 'https://web.example', 'access-control-request-method': 'PUT' },
    });
    expect(res.headers['access-control-allow-methods']).toBe('GET');
  });

  it('sends a returned string as JSON, unless the handler set another media type', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/s', () => 'hello "you"'),
      get('/text', (c) => {
        c.header('content-type', 'text/plain; charset=utf-8');
        return 'plain';
      }),
    );
    const res = await app.inject('/s');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toBe('hello "you"');
    const text = await app.inject('/text');
    // A schema library with no JSON Schema side checks by validating: still JSON.
    const { app: other } = testApp({ docs: { path: '/docs' }, env: 'production' });
    other.addRoutes(get('/v', { responses: { 200: v.string() } }, () => 'checked'));
    const checked = await other.inject('/v');
    expect(checked.headers['content-type']).toMatch(/^application\/json/);
    expect(checked.json()).toBe('checked');
    expect(text.body).toBe('plain');
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('answers 500 for a value that does not match its response schema, naming the field in the log', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/bool', { responses: { 200: z.object({ ok: z.boolean() }) } }, () => ({
        ok: 'false' as unknown as boolean,
      })),
      get('/str', { responses: { 200: z.object({ name: z.string() }) } }, () => ({
        name: { first: 'Ada' } as unknown as string,
      })),
      get('/missing', { responses: { 200: z.object({ id: z.number() }) } }, () => ({}) as never),
    );
    for (const [url, field] of [
      ['/bool', 'response.ok must be boolean'],
      ['/str', 'response.name must be string'],
      ['/missing', 'response.id is required'],
    ] as const) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('ok');
      const entry = requestEntries(lines).find((e) => e.path === url)!;
      expect(entry.level).toBe('error');
      expect(entry.error).toContain(field);
    }
  });

  it('still strips fields a response schema does not declare, and passes a valid value', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/u', { responses: { 200: z.object({ id: z.number(), email: z.email() }) } }, () => ({
        id: 1,
        email: 'a@b.example',
        password: 'secret',
      })),
      get('/bad-email', { responses: { 200: z.object({ email: z.email() }) } }, () => ({
        email: 'nope',
      })),
    );
    const res = await app.inject('/u');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, email: 'a@b.example' });
    expect((await app.inject('/bad-email')).statusCode).toBe(500);
  });

  it('checks c.status() answers against the schema of their status', async () => {
    const { app } = testApp();
    app.addRoutes(
      get(
        '/s',
        { responses: { 200: z.object({ a: z.number() }), 202: z.object({ b: z.string() }) } },
        (c) => c.status(202, { b: 1 as unknown as string }),
      ),
    );
    expect((await app.inject('/s')).statusCode).toBe(500);
  });

  it('gives a lone query value to an array schema as an array', async () => {
    const { app } = testApp();
    app.addRoutes(
      get(
        '/t',
        { query: z.object({ tag: z.array(z.string()), n: z.coerce.number().optional() }) },
        (c) => c.query,
      ),
    );
    expect((await app.inject('/t?tag=a')).json()).toEqual({ tag: ['a'] });
    expect((await app.inject('/t?tag=a&tag=b&n=2')).json()).toEqual({ tag: ['a', 'b'], n: 2 });
    expect((await app.inject('/t')).statusCode).toBe(422);
  });

  it('refuses an object query parameter at registration, naming the route and the parameter', async () => {
    const { app } = testApp();
    app.addRoutes(get('/f', { query: z.object({ filter: z.object({ a: z.string() }) }) }, () => 1));
    await expect(app.ready()).rejects.toThrow(
      /route GET \/f: the query parameter "filter" is an object/,
    );
  });

  it('matches header schemas with mixed-case names, header names being case-insensitive', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/h', { headers: z.object({ 'X-Api-Version': z.enum(['1', '2']) }) }, (c) => ({
        v: c.headers['X-Api-Version'],
      })),
    );
    expect((await app.inject({ url: '/h', headers: { 'X-API-VERSION': '2' } })).json()).toEqual({
      v: '2',
    });
    const bad = await app.inject({ url: '/h', headers: { 'x-api-version': '9' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].path).toBe('headers.X-Api-Version');
  });

  it('answers 404 for an empty path parameter', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/users/:id', { params: z.object({ id: z.coerce.number() }) }, (c) => c.params),
    );
    const res = await app.inject('/users/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'NOT_FOUND',
      detail: 'No route matches GET /users/.',
    });
    expect(requestEntries(lines).at(-1)).toMatchObject({ path: '/users/', status: 404 });
    expect((await app.inject('/users/7')).json()).toEqual({ id: 7 });
  });

  it('ignores an empty JSON body on a route that declares none, and names body when one is declared', async () => {
    const { app } = testApp();
    app.addRoutes(
      del('/things/:id', () => undefined),
      post('/logout', () => ({ ok: true })),
      post('/users', { body: z.object({ name: z.string() }) }, (c) => c.body),
    );
    const json = { 'content-type': 'application/json' };
    expect(
      (await app.inject({ method: 'DELETE', url: '/things/1', headers: json })).statusCode,
    ).toBe(204);
    expect((await app.inject({ method: 'POST', url: '/logout', headers: json })).statusCode).toBe(
      200,
    );
    const res = await app.inject({ method: 'POST', url: '/users', headers: json });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['body']);
    const bad = await app.inject({
      method: 'POST',
      url: '/users',
      headers: json,
      payload: '{"a":',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 415 for text/plain sent to a JSON body route', async () => {
    const { app } = testApp();
    app.addRoutes(post('/users', { body: z.object({ name: z.string() }) }, (c) => c.body));
    const res = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'text/plain' },
      payload: '{"name":"Ada"}',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('decodes gzip, deflate and br bodies, and refuses an unknown encoding with 415', async () => {
    const { app } = testApp({ bodyLimit: 1024 });
    app.addRoutes(post('/users', { body: z.object({ name: z.string() }) }, (c) => c.body));
    const body = Buffer.from('{"name":"Ada"}');
    const send = (encoding: string, payload: Buffer) =>
      app.inject({
        method: 'POST',
        url: '/users',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        payload,
      });
    for (const [encoding, payload] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['identity', body],
      ['gzip, br', brotliCompressSync(gzipSync(body))],
    ] as const) {
      const res = await send(encoding, payload);
      expect([encoding, res.statusCode, res.json()]).toEqual([encoding, 200, { name: 'Ada' }]);
    }
    const unknown = await send('compress', body);
    expect(unknown.statusCode).toBe(415);
    expect(unknown.json().detail).toContain('"compress"');
    // Names an ordinary object inherits are encodings like any other unknown one.
    for (const inherited of ['constructor', 'toString', '__proto__']) {
      const res = await send(inherited, body);
      expect([inherited, res.statusCode]).toEqual([inherited, 415]);
    }
    const corrupt = await send('gzip', body);
    expect(corrupt.statusCode).toBe(400);
    expect(corrupt.json().detail).toBe('The request body is not valid gzip data.');
    // The body limit holds for the decoded bytes: a small gzip of a large body is refused.
    const bomb = gzipSync(Buffer.from(`{"name":"${'a'.repeat(100_000)}"}`));
    expect(bomb.length).toBeLessThan(1024);
    expect((await send('gzip', bomb)).statusCode).toBe(413);
  });

  it('keeps a long path short in the 404 detail and the log entry', async () => {
    const { app, lines } = testApp();
    const path = `/${'a'.repeat(10_000)}`;
    const res = await app.inject(path);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail.length).toBeLessThan(700);
    expect(res.json().detail).toContain('(10001 characters)');
    const entry = requestEntries(lines).at(-1)!;
    expect(String(entry.path).length).toBeLessThan(700);
  });

  it('logs a library error with statusCode 409 at warn, like other 4xx', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/c', () => {
        throw Object.assign(new Error('duplicate key'), { statusCode: 409 });
      }),
    );
    const res = await app.inject('/c');
    expect(res.statusCode).toBe(409);
    expect(requestEntries(lines).at(-1)).toMatchObject({ level: 'warn', status: 409 });
  });
});
