import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jwt } from '../../src/auth/index.js';
import { middlewareDocsOf } from '../../src/extend/index.js';
import { get, guarded } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { hsToken, type JwksServer, rawGet, SECRET, startJwks, unsignedToken } from './support.js';

const Claims = z.object({ sub: z.string(), role: z.enum(['user', 'admin']) });

function appWith(guard: ReturnType<typeof jwt>) {
  const { app, lines } = testApp();
  app.addRoutes(get('/me', { middleware: [guard] }, (c) => ({ user: c.user ?? null })));
  return { app, lines };
}

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

describe('jwt() with a secret', () => {
  const guard = jwt({ secret: SECRET, issuer: 'keelson-tests', audience: 'api' });
  const good = { iss: 'keelson-tests', aud: 'api', sub: 'u1' };

  it('lets a valid token through and sets c.user to its claims', async () => {
    const { app } = appWith(guard);
    const res = await app.inject({ url: '/me', headers: bearer(await hsToken(good)) });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { sub: 'u1', iss: 'keelson-tests', aud: 'api' } });
  });

  it('answers 401 problem+json with WWW-Authenticate: Bearer when the token is missing', async () => {
    const { app } = appWith(guard);
    const res = await app.inject('/me');

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  const bad: [string, () => Promise<Record<string, string>>][] = [
    [
      'an expired token',
      async () => bearer(await hsToken({ ...good, exp: Math.floor(Date.now() / 1000) - 60 })),
    ],
    [
      'a token signed with another secret',
      async () => bearer(await hsToken(good, 'another-secret-of-enough-length')),
    ],
    ['a token from another issuer', async () => bearer(await hsToken({ ...good, iss: 'evil' }))],
    ['a token for another audience', async () => bearer(await hsToken({ ...good, aud: 'other' }))],
    [
      'a token not valid yet',
      async () => bearer(await hsToken({ ...good, nbf: Math.floor(Date.now() / 1000) + 600 })),
    ],
    ['an unsigned token (alg: none)', async () => bearer(unsignedToken(good))],
    ['a token of 100 KB', async () => bearer(`${'a'.repeat(100 * 1024)}.b.c`)],
    ['garbage', async () => bearer('not-a-jwt')],
    ['a token in a wrong alphabet', async () => bearer('a b"c')],
    [
      'an HS512 token when only HS256 is accepted',
      async () => bearer(await hsToken(good, SECRET, 'HS512')),
    ],
  ];

  it.each(bad)('answers 401 invalid_token for %s, and logs no token', async (name, headers) => {
    const strict = name.startsWith('an HS512')
      ? jwt({ secret: SECRET, algorithms: ['HS256'] })
      : guard;
    const { app, lines } = appWith(strict);
    const h = await headers();
    const res = await app.inject({ url: '/me', headers: h });

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect(res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const token = h.authorization!.slice('Bearer '.length);
    expect(res.body).not.toContain(token);
    expect(lines.join('\n')).not.toContain(token.slice(0, 40));
  });

  it.each([
    ['Bearer with no token', 'Bearer'],
    ['Bearer and spaces', 'Bearer    '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('answers 401 invalid_request for %s', async (_name, value) => {
    const { app } = appWith(guard);
    const res = await app.inject({ url: '/me', headers: { authorization: value } });

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_request"/);
  });

  it('says an expired token has expired', async () => {
    const { app } = appWith(guard);
    const token = await hsToken({ ...good, exp: Math.floor(Date.now() / 1000) - 60 });
    const res = await app.inject({ url: '/me', headers: bearer(token) });

    expect(res.json()).toMatchObject({ detail: 'The token has expired.' });
  });

  it('accepts a token a little past exp within clockToleranceSec', async () => {
    const { app } = appWith(jwt({ secret: SECRET, clockToleranceSec: 120 }));
    const token = await hsToken({ exp: Math.floor(Date.now() / 1000) - 60 });

    expect((await app.inject({ url: '/me', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('answers 401 for two Authorization headers on a real socket', async () => {
    const { app } = appWith(guard);
    const token = await hsToken(good);
    const res = await rawGet(app, '/me', [
      ['Authorization', `Bearer ${token}`],
      ['Authorization', `Bearer ${token}`],
    ]);

    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_request"/);
  });

  it('answers a valid token on a real socket', async () => {
    const { app } = appWith(guard);
    const res = await rawGet(app, '/me', [['Authorization', `Bearer ${await hsToken(good)}`]]);

    expect(res.status).toBe(200);
  });

  it('refuses a 100 KB Authorization header on a real socket, never with a 500', async () => {
    const { app, lines } = appWith(guard);
    const res = await rawGet(app, '/me', [['Authorization', `Bearer ${'a'.repeat(100 * 1024)}`]]);

    // Node's parser refuses headers over 16 KB (431) before any route runs.
    expect([401, 431]).toContain(res.status);
    expect(lines.join('\n')).not.toContain('a'.repeat(64));
  });
});

describe('jwt() with claims', () => {
  const auth = guarded(jwt({ secret: SECRET, claims: Claims }));

  it('sets c.user to the validated claims', async () => {
    const { app } = testApp();
    app.addRoutes(auth.get('/role', (c) => ({ role: c.user.role, sub: c.user.sub })));
    const res = await app.inject({
      url: '/role',
      headers: bearer(await hsToken({ sub: 'u', role: 'admin' })),
    });

    expect(res.json()).toEqual({ role: 'admin', sub: 'u' });
  });

  it('answers 401 when the claims do not pass the schema', async () => {
    const { app } = testApp();
    app.addRoutes(auth.get('/role', (c) => ({ role: c.user.role })));
    const res = await app.inject({
      url: '/role',
      headers: bearer(await hsToken({ sub: 'u', role: 'root' })),
    });

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/invalid_token/);
  });
});

describe('jwt({ optional: true })', () => {
  const guard = jwt({ secret: SECRET, optional: true });

  it('runs the handler with c.user undefined when there are no credentials', async () => {
    const { app } = appWith(guard);
    const res = await app.inject('/me');

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
  });

  it('still answers 401 for a bad token', async () => {
    const { app } = appWith(guard);
    const res = await app.inject({ url: '/me', headers: bearer('bad.token.here') });

    expect(res.statusCode).toBe(401);
  });
});

describe('jwt({ scheme })', () => {
  it('reads `Token <jwt>` and challenges with Token', async () => {
    const { app } = appWith(jwt({ secret: SECRET, scheme: 'Token' }));
    const token = await hsToken({ sub: 'u' });

    const ok = await app.inject({ url: '/me', headers: { authorization: `Token ${token}` } });
    const missing = await app.inject('/me');
    const wrong = await app.inject({ url: '/me', headers: bearer(token) });
    expect(ok.statusCode).toBe(200);
    expect(missing.headers['www-authenticate']).toBe('Token');
    expect(wrong.statusCode).toBe(401);
  });
});

describe('jwt() with a JWKS', () => {
  let jwks: JwksServer;
  beforeAll(async () => {
    jwks = await startJwks();
  });
  afterAll(() => jwks.close());

  it('verifies an RS256 token against the key set, fetching it once', async () => {
    const { app } = appWith(jwt({ jwksUrl: jwks.url }));
    const before = jwks.fetches();
    const first = await app.inject({ url: '/me', headers: bearer(await jwks.sign({ sub: 'k' })) });
    const second = await app.inject({
      url: '/me',
      headers: bearer(await jwks.sign({ sub: 'k2' })),
    });

    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toMatchObject({ user: { sub: 'k2' } });
    expect(jwks.fetches() - before).toBe(1);
  });

  it.each([
    ['an HS256 token against the RS256 key', () => hsToken({ sub: 'x' })],
    [
      'an HS256 token signed with the public key as its secret',
      () => hsToken({ sub: 'x' }, 'public'),
    ],
    ['an unsigned token', async () => unsignedToken({ sub: 'x' })],
  ])('answers 401 for %s', async (_name, make) => {
    const { app } = appWith(jwt({ jwksUrl: jwks.url }));
    const res = await app.inject({ url: '/me', headers: bearer(await make()) });

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });

  it('answers 503 when the key set cannot be fetched', async () => {
    const down = await startJwks();
    const url = down.url;
    const token = await down.sign({ sub: 'x' });
    await down.close();
    const { app } = appWith(jwt({ jwksUrl: url }));
    const res = await app.inject({ url: '/me', headers: bearer(token) });

    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('jwt() declares itself', () => {
  it('carries its 401, its requirement and its scheme', () => {
    expect(middlewareDocsOf(jwt({ secret: SECRET }))).toMatchObject({
      responses: { 401: { headers: { 'WWW-Authenticate': {} } } },
      security: [{ bearerAuth: [] }],
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    });
  });

  it('adds {} as an alternative when optional, and names its scheme on request', () => {
    const docs = middlewareDocsOf(
      jwt({ secret: SECRET, optional: true, securityScheme: 'userJwt' }),
    );
    expect(docs?.security).toEqual([{ userJwt: [] }, {}]);
  });

  it('documents `Token <jwt>` as a header, not as http bearer', () => {
    expect(middlewareDocsOf(jwt({ secret: SECRET, scheme: 'Token' }))?.securitySchemes).toEqual({
      tokenAuth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Authorization: Token <JWT>',
      },
    });
  });

  it('refuses options without exactly one key source, or a bad scheme word', () => {
    expect(() => jwt({} as never)).toThrow(/exactly one of secret and jwksUrl/);
    expect(() => jwt({ secret: SECRET, jwksUrl: 'http://x' } as never)).toThrow(/exactly one/);
    expect(() => jwt({ secret: '' })).toThrow(/non-empty/);
    expect(() => jwt({ jwksUrl: 'not a url' })).toThrow(/absolute URL/);
    expect(() => jwt({ secret: SECRET, scheme: 'Two words' })).toThrow(/one word/);
  });
});
