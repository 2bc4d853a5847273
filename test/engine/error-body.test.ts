import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, type Middleware, post, unauthorized } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { rawRequest, toBytes } from '../reliability/raw-http.js';

// RealWorld's envelope: {"errors":{"body":["…"]}}.
const realWorld = {
  contentType: 'application/json',
  body: (p: { detail: string; errors?: { path: string; message: string }[] }) => ({
    errors: { body: p.errors?.map((e) => `${e.path} ${e.message}`) ?? [p.detail] },
  }),
};

const guard: Middleware = (c, next) => {
  if (c.request.headers.authorization === undefined) throw unauthorized('token missing');
  return next();
};

function appWithHook() {
  const { app, lines } = testApp({ errors: realWorld, bodyLimit: 64, host: '127.0.0.1', port: 0 });
  app.addRoutes(
    post('/users', { body: z.object({ name: z.string() }) }, (c) => c.body),
    get('/boom', () => {
      throw new Error('secret cause');
    }),
    get('/guarded', { middleware: [guard] }, () => 1),
  );
  return { app, lines };
}

describe('the errors body hook', () => {
  it('shapes every error answer, whoever produced it', async () => {
    const { app } = appWithHook();
    const json = { 'content-type': 'application/json' };
    const cases = [
      [{ url: '/nope' }, 404],
      [{ method: 'DELETE', url: '/users' }, 405],
      [{ method: 'POST', url: '/users', headers: json, payload: '{"name":' }, 400],
      [{ method: 'POST', url: '/users', headers: json, payload: { name: 1 } }, 422],
      [{ method: 'POST', url: '/users', headers: json, payload: { name: 'x'.repeat(100) } }, 413],
      [
        { method: 'POST', url: '/users', headers: { 'content-type': 'text/xml' }, payload: '<a/>' },
        415,
      ],
      [{ url: '/boom' }, 500],
      [{ url: '/guarded' }, 401],
      [{ url: '/%zz' }, 400],
    ] as const;
    for (const [request, status] of cases) {
      const res = await app.inject(request as never);
      expect([request.url, res.statusCode]).toEqual([request.url, status]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(Object.keys(body)).toEqual(['errors']);
      expect(body.errors.body.length).toBeGreaterThan(0);
    }
    const invalid = await app.inject({ method: 'POST', url: '/users', payload: { name: 1 } });
    expect(invalid.json().errors.body[0]).toMatch(/^body\.name /);
    expect((await app.inject('/boom')).body).not.toContain('secret cause');
  });

  it('shapes the answers written on the raw socket too', async () => {
    const { app } = appWithHook();
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.fastify.server.address() as AddressInfo).port;
      const parser = await rawRequest(port, Buffer.from('GET / HTTP/1.1\r\nBad Header\r\n\r\n'));
      expect(parser.status).toBe(400);
      expect(parser.headers['content-type']).toBe('application/json');
      expect(JSON.parse(parser.body)).toEqual({
        errors: { body: ['The request is not valid HTTP/1.1.'] },
      });
      const expectation = await rawRequest(
        port,
        toBytes({ method: 'POST', url: '/users', headers: { expect: '100-foo' } }),
      );
      expect(expectation.status).toBe(417);
      expect(JSON.parse(expectation.body)).toHaveProperty('errors.body');
    } finally {
      await app.close();
    }
  });

  it('gives the hook the request id, method and path', async () => {
    const seen: unknown[] = [];
    const { app } = testApp({
      errors: {
        body: (p, c) => {
          seen.push(c);
          return { message: p.detail, id: p.requestId };
        },
      },
    });
    const res = await app.inject({ url: '/nope?x=1', headers: { 'x-request-id': 'r1' } });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toEqual({ message: 'No route matches GET /nope.', id: 'r1' });
    expect(seen).toEqual([{ requestId: 'r1', method: 'GET', path: '/nope' }]);
  });

  it('falls back to the problem, and logs why, when the hook throws', async () => {
    const { app, lines } = testApp({
      errors: {
        body: () => {
          throw new Error('hook broke');
        },
      },
    });
    const res = await app.inject('/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(lines.some((l) => l.includes('errors.body failed') && l.includes('hook broke'))).toBe(
      true,
    );
    expect(requestEntries(lines)).toHaveLength(1);
  });

  it('falls back to the problem, and logs why, when the hook returns no JSON value', async () => {
    const { app, lines } = testApp({ errors: { body: () => undefined } });
    const res = await app.inject('/nope');
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(lines.map((l) => JSON.parse(l).message)).toContain(
      'errors.body returned no JSON value for a 404',
    );
  });

  it('gives the hook a problem with no requestId member when ids are off', async () => {
    const keys: string[][] = [];
    const { app } = testApp({
      requestId: false,
      errors: { body: (p) => keys.push(Object.keys(p)) },
    });
    await app.inject('/nope');
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('requestId');
  });

  it('refuses an errors option with a bad field, naming it', () => {
    expect(() => testApp({ errors: { body: 'x' as never } })).toThrow(
      'errors.body must be a function, got string',
    );
    expect(() => testApp({ errors: { contentType: 'json' } })).toThrow(/errors.contentType/);
    expect(() => testApp({ errors: { schema: {} as never } })).toThrow(/errors.schema/);
  });

  it('takes an errors schema that is a function carrying ~standard, as ArkType types are', () => {
    const callable = Object.assign(() => true, { '~standard': z.object({})['~standard'] });
    expect(() => testApp({ errors: { schema: callable as never } })).not.toThrow();
  });
});
