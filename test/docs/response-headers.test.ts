import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get, notFound, post, rateLimit } from '../../src/index.js';

// Headers the document promises on answers besides the status ones: RateLimit-* on every answer
// a rate limit covers, Set-Cookie on the answers of a route that sets cookies.

function app(): App {
  return new App({ serviceName: 'h', env: 'development' });
}

const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

describe('headers on every answer', () => {
  it('documents RateLimit-* on every answer a rate limit covers, not only its 429', async () => {
    const a = app();
    a.group('/api', rateLimit({ max: 5, windowMs: 60_000 })).addRoutes(
      get('/items', { responses: { 200: z.array(z.string()) }, errors: [404] }, () => []),
    );
    a.addRoutes(get('/free', () => 'x'));
    const doc = await a.openapi();
    const items = doc.paths['/api/items']?.get?.responses ?? {};
    for (const status of ['200', '404', '429', '500', '4XX', '5XX']) {
      const names = Object.keys(items[status]?.headers ?? {});
      expect(names, status).toEqual(expect.arrayContaining(RATE_HEADERS));
    }
    expect(items['200']?.headers?.['RateLimit-Remaining']).toStrictEqual({
      description: 'Requests left in the current window.',
      schema: { type: 'integer' },
    });
    expect(Object.keys(items['429']?.headers ?? {})).toContain('Retry-After');
    expect(doc.paths['/api/items']?.head?.responses['200']?.headers).toBeDefined();
    const free = doc.paths['/free']?.get?.responses ?? {};
    expect(Object.values(free).some((r) => r.headers?.['RateLimit-Limit'])).toBe(false);
  });

  it('sends the headers it documents on a success and on an error', async () => {
    const a = app();
    a.group('/api', rateLimit({ max: 5, windowMs: 60_000 })).addRoutes(
      get('/ok', () => 'x'),
      get('/missing', { errors: [404] }, () => {
        throw notFound('gone');
      }),
    );
    for (const [url, status] of [
      ['/api/ok', 200],
      ['/api/missing', 404],
    ] as const) {
      const res = await a.inject(url);
      expect(res.statusCode, url).toBe(status);
      for (const h of RATE_HEADERS)
        expect(res.headers[h.toLowerCase()], `${url} ${h}`).toBeDefined();
    }
  });
});

describe('Set-Cookie', () => {
  it('is documented on the successes of a route that declares the cookies it sets', async () => {
    const a = app();
    a.addRoutes(
      post(
        '/login',
        {
          responseCookies: ['session', 'csrf'],
          responses: { 200: z.object({ ok: z.boolean() }) },
          errors: [401],
        },
        (c) => {
          c.setCookie('session', 's');
          return { ok: true };
        },
      ),
      get('/plain', () => 'x'),
    );
    const doc = await a.openapi();
    const login = doc.paths['/login']?.post?.responses ?? {};
    expect(login['200']?.headers?.['Set-Cookie']).toStrictEqual({
      description: 'Sets the cookies session, csrf.',
      schema: { type: 'string' },
    });
    expect(login['401']?.headers?.['Set-Cookie']).toBeUndefined();
    const plain = doc.paths['/plain']?.get?.responses ?? {};
    expect(Object.values(plain).some((r) => r.headers?.['Set-Cookie'])).toBe(false);
  });

  it('refuses a cookie name that is not a token, naming the route', async () => {
    const a = app();
    a.addRoutes(get('/c', { responseCookies: ['a b'] }, () => 'x'));
    await expect(a.openapi()).rejects.toThrow(
      'route GET /c (app): responseCookies must list cookie names, got ["a b"]',
    );
  });
});
