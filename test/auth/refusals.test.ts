import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { apiKey, authorize, bearer, jwt } from '../../src/auth/index.js';
import { middlewareDocsOf } from '../../src/extend/index.js';
import { get, type Middleware } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { hsToken, rawGet, SECRET } from './support.js';

// What each refusal says (the problem's detail and the challenge), the boundaries of what a
// guard accepts, and what each guard declares: plain it() tests, one behaviour each.

function appWith(guard: Middleware) {
  const { app } = testApp();
  app.addRoutes(get('/me', { middleware: [guard] }, (c) => ({ user: c.user ?? null })));
  return app;
}

async function call(guard: Middleware, headers: Record<string, string | string[]> = {}) {
  const res = await appWith(guard).inject({ url: '/me', headers });
  const body = res.json() as { detail?: string; user?: unknown };
  return { status: res.statusCode, challenge: res.headers['www-authenticate'], body };
}

const anyUser = bearer({ verify: (token) => ({ token }) });

describe('bearer(): what it reads', () => {
  it('says a token is required when there is none', async () => {
    const r = await call(anyUser);
    expect(r).toMatchObject({ status: 401, challenge: 'Bearer' });
    expect(r.body.detail).toBe('A token is required.');
  });

  it('refuses another scheme, naming the one it takes', async () => {
    const r = await call(anyUser, { authorization: 'Basic YWRhOnB3' });
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe('The Authorization header must use the Bearer scheme.');
    expect(r.challenge).toBe(
      'Bearer error="invalid_request", error_description="The Authorization header must use the Bearer scheme."',
    );
  });

  it('says no token follows the scheme word when it stands alone', async () => {
    const r = await call(anyUser, { authorization: 'Bearer' });
    expect(r.body.detail).toBe('No token follows Bearer.');
  });

  it('reads the scheme word in any case, around spaces', async () => {
    const r = await call(anyUser, { authorization: ' bEARER   abc.DEF-_~+/== ' });
    expect(r.body.user).toEqual({ token: 'abc.DEF-_~+/==' });
  });

  it('takes a token of exactly maxTokenLength, and refuses one character more as too long', async () => {
    const guard = bearer({ verify: (token) => token.length, maxTokenLength: 10 });
    expect((await call(guard, { authorization: `Bearer ${'a'.repeat(10)}` })).body.user).toBe(10);
    const r = await call(guard, { authorization: `Bearer ${'a'.repeat(11)}` });
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe('The token is too long.');
  });

  it('refuses a token with characters RFC 6750 does not allow, anywhere in it', async () => {
    for (const token of ['%abc', 'abc%', 'ab%c', 'a=b']) {
      const r = await call(anyUser, { authorization: `Bearer ${token}` });
      expect(r.status).toBe(401);
      expect(r.body.detail).toBe('The token is malformed.');
    }
  });

  it('takes a one-character token and one without padding', async () => {
    expect((await call(anyUser, { authorization: 'Bearer x' })).body.user).toEqual({ token: 'x' });
    expect((await call(anyUser, { authorization: 'Bearer xy=' })).body.user).toEqual({
      token: 'xy=',
    });
  });

  it('refuses two Authorization headers (real socket)', async () => {
    const res = await rawGet(appWith(anyUser), '/me', [
      ['authorization', 'Bearer a'],
      ['authorization', 'Bearer b'],
    ]);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).detail).toBe('Send one Authorization header, not several.');
  });

  it('answers a token that verify refuses with its reason', async () => {
    const r = await call(bearer({ verify: () => undefined }), { authorization: 'Bearer abc' });
    expect(r.body.detail).toBe('The token is not valid.');
  });
});

describe('bearer(): its options', () => {
  it('refuses a verify that is not a function, naming the guard', () => {
    expect(() => bearer({ verify: undefined as never })).toThrow(
      new TypeError('bearer(): verify must be a function, got undefined'),
    );
  });

  it('refuses a scheme that is not one token word, naming the guard', () => {
    for (const scheme of ['Tok en', '1Token', '-Token', 'Token ', ' Token', 'Tok"en', '']) {
      expect(() => bearer({ verify: () => 1, scheme })).toThrow(
        `bearer(): scheme must be one word such as 'Bearer', got ${JSON.stringify(scheme)}`,
      );
    }
    // Not a string, though its text is a good word: refused before anything calls its methods.
    for (const scheme of [42, ['Bearer']]) {
      expect(() => bearer({ verify: () => 1, scheme: scheme as never })).toThrow(
        /^bearer\(\): scheme must be one word such as 'Bearer', got /,
      );
    }
  });

  it("takes any token word as the scheme, such as 'X-Token.v2'", async () => {
    const guard = bearer({ verify: (t) => t, scheme: "X-Token.v2!#$%&'*+^_`|~" });
    const r = await call(guard, { authorization: "X-Token.v2!#$%&'*+^_`|~ abc" });
    expect(r.body.user).toBe('abc');
    expect(bearer({ verify: () => 1, scheme: 'T' })).toBeTypeOf('function');
  });

  it('is required unless optional', async () => {
    expect((await call(bearer({ verify: () => 1 }))).status).toBe(401);
  });

  it('declares another scheme word as an Authorization header with an opaque token', () => {
    const docs = middlewareDocsOf(bearer({ verify: () => 1, scheme: 'Token' }));
    expect(docs?.securitySchemes).toEqual({
      tokenAuth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Authorization: Token <token>',
      },
    });
    expect(docs?.responses?.[401]).toEqual({
      description: 'Credentials are missing or not valid',
      headers: { 'WWW-Authenticate': { description: 'The Token challenge (RFC 6750)' } },
      codes: ['UNAUTHORIZED'],
    });
  });

  it('declares a 401 only for bad credentials when optional', () => {
    const docs = middlewareDocsOf(bearer({ verify: () => 1, optional: true }));
    expect(docs?.responses?.[401]?.description).toBe('The credentials are not valid');
  });
});

const keyed = apiKey({ verify: (key) => (key === 'k-123' ? { service: 'billing' } : undefined) });

describe('apiKey()', () => {
  it('reads x-api-key by default', async () => {
    expect((await call(keyed, { 'x-api-key': 'k-123' })).body.user).toEqual({
      service: 'billing',
    });
    expect((await call(keyed, { authorization: 'k-123' })).status).toBe(401);
  });

  it('says the key is required, in which header, with the ApiKey challenge', async () => {
    const r = await call(keyed);
    expect(r).toMatchObject({ status: 401, challenge: 'ApiKey header="x-api-key"' });
    expect(r.body.detail).toBe('An API key is required in the x-api-key header.');
  });

  it('lets a request without a key through when optional, but not a bad key', async () => {
    const optional = apiKey({ verify: (k) => (k === 'k' ? 1 : undefined), optional: true });
    expect((await call(optional)).body.user).toBeNull();
    expect((await call(optional, { 'x-api-key': 'bad' })).status).toBe(401);
  });

  it('says the key is not valid when verify refuses it', async () => {
    const r = await call(keyed, { 'x-api-key': 'nope' });
    expect(r.body.detail).toBe('The API key is not valid.');
  });

  it('refuses a blank key without calling verify', async () => {
    let calls = 0;
    const counting = apiKey({
      verify: () => {
        calls++;
        return 1;
      },
    });
    const r = await call(counting, { 'x-api-key': '   ' });
    expect(r.body.detail).toBe('The API key is not valid.');
    expect(calls).toBe(0);
  });

  it('trims the key', async () => {
    expect((await call(keyed, { 'x-api-key': ' k-123 ' })).body.user).toEqual({
      service: 'billing',
    });
  });

  it('takes a key of exactly maxKeyLength, and refuses a longer one without calling verify', async () => {
    const seen: string[] = [];
    const guard = apiKey({
      verify: (k) => {
        seen.push(k);
        return k.length;
      },
      maxKeyLength: 5,
    });
    expect((await call(guard, { 'x-api-key': 'abcde' })).body.user).toBe(5);
    const r = await call(guard, { 'x-api-key': 'abcdef' });
    expect(r.body.detail).toBe('The API key is not valid.');
    expect(seen).toEqual(['abcde']);
  });

  it('refuses a key header given as several values', async () => {
    const r = await call(keyed, { 'x-api-key': ['k-123', 'k-123'] });
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe('Send one x-api-key header, not several.');
  });

  it('refuses two key headers that Node joined into one (real socket)', async () => {
    const res = await rawGet(appWith(keyed), '/me', [
      ['x-api-key', 'k-123'],
      ['X-Api-Key', 'k-123'],
    ]);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).detail).toBe('Send one x-api-key header, not several.');
  });

  it('refuses a verify that is not a function, naming the guard', () => {
    expect(() => apiKey({ verify: 'x' as never })).toThrow(
      new TypeError('apiKey(): verify must be a function, got string'),
    );
  });
});

describe('authorize()', () => {
  it('refuses with its default message', async () => {
    const guard = authorize(() => false);
    const { app } = testApp();
    app.addRoutes(get('/x', { middleware: [guard] }, () => 'ok'));
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('You are not allowed to do this.');
  });

  it('refuses a check that is not a function, saying what it got', () => {
    expect(() => authorize('admin' as never)).toThrow(
      new TypeError('authorize() takes a check function, got string'),
    );
  });

  it('declares its 403 and its code', () => {
    expect(middlewareDocsOf(authorize(() => true))?.responses).toEqual({
      403: { description: 'The credentials do not allow this', codes: ['FORBIDDEN'] },
    });
  });
});

describe('jwt(): its options', () => {
  it('refuses a bad scheme word and a blank secret, naming the guard', () => {
    expect(() => jwt({ secret: SECRET, scheme: 'a b' })).toThrow(
      `jwt(): scheme must be one word such as 'Bearer', got "a b"`,
    );
    for (const secret of ['', new Uint8Array(0)]) {
      expect(() => jwt({ secret })).toThrow(
        new TypeError('jwt(): secret must be a non-empty string or Uint8Array'),
      );
    }
  });

  it('takes the secret as bytes', async () => {
    const guard = jwt({ secret: new TextEncoder().encode(SECRET) });
    const r = await call(guard, { authorization: `Bearer ${await hsToken({ sub: 'ada' })}` });
    expect(r.body.user).toMatchObject({ sub: 'ada' });
  });

  it('accepts HS256, HS384 and HS512 by default', async () => {
    const guard = jwt({ secret: SECRET });
    for (const alg of ['HS256', 'HS384', 'HS512']) {
      const token = await hsToken({ sub: alg }, SECRET, alg);
      expect((await call(guard, { authorization: `Bearer ${token}` })).body.user).toMatchObject({
        sub: alg,
      });
    }
  });

  it('says a token is required when there is none', async () => {
    expect((await call(jwt({ secret: SECRET }))).body.detail).toBe('A token is required.');
  });

  it('checks the issuer and the audience only when given', async () => {
    const token = await hsToken({ iss: 'someone', aud: 'others' });
    const auth = { authorization: `Bearer ${token}` };
    expect((await call(jwt({ secret: SECRET }), auth)).status).toBe(200);
    const iss = await call(jwt({ secret: SECRET, issuer: 'us' }), auth);
    expect(iss.body.detail).toBe("The token's iss claim is not accepted.");
    const aud = await call(jwt({ secret: SECRET, audience: 'api' }), auth);
    expect(aud.body.detail).toBe("The token's aud claim is not accepted.");
    const both = await call(jwt({ secret: SECRET, issuer: 'someone', audience: 'others' }), auth);
    expect(both.status).toBe(200);
  });

  it('tells an expired token from one with a bad signature', async () => {
    const guard = jwt({ secret: SECRET });
    const expired = await hsToken({ exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await call(guard, { authorization: `Bearer ${expired}` })).body.detail).toBe(
      'The token has expired.',
    );
    const forged = await hsToken({}, 'another-secret-that-is-long-enough');
    expect((await call(guard, { authorization: `Bearer ${forged}` })).body.detail).toBe(
      'The token is not valid.',
    );
  });
});

describe('jwt(): what it answers', () => {
  it("says the token's claims are not accepted when they fail the schema", async () => {
    const guard = jwt({
      secret: SECRET,
      claims: {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: () => ({ issues: [{ message: 'sub is required' }] }),
        },
      },
    });
    const r = await call(guard, { authorization: `Bearer ${await hsToken({})}` });
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe("The token's claims are not accepted.");
  });

  it('answers 503 with its reason when the key set answers an error or a body that is no key set', async () => {
    for (const [status, body] of [
      [500, '{}'],
      [200, '{"no":"keys"}'],
    ] as const) {
      const server = createServer((_req, res) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(body);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as AddressInfo;
      try {
        const guard = jwt({ jwksUrl: `http://127.0.0.1:${port}/jwks.json` });
        const r = await call(guard, {
          authorization: `Bearer ${await hsToken({}, SECRET, 'HS256')}`,
        });
        // An HS256 token never reaches the key set of an RS* guard: sign a header that asks for RS256.
        expect(r.status).toBe(401);
        const rsToken = `${Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.c2ln`;
        const fetched = await call(guard, { authorization: `Bearer ${rsToken}` });
        expect(fetched.status).toBe(503);
        expect(fetched.body.detail).toBe('The keys that check the token cannot be fetched.');
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    }
  });
});

describe('jwt(): keys', () => {
  it('refuses a null secret with its own message', () => {
    expect(() => jwt({ secret: null as never })).toThrow(
      new TypeError('jwt(): secret must be a non-empty string or Uint8Array'),
    );
  });

  it('accepts every asymmetric algorithm by default with a key set, and no HMAC one', async () => {
    const algs = [
      'RS256',
      'RS384',
      'RS512',
      'PS256',
      'PS384',
      'PS512',
      'ES256',
      'ES384',
      'ES512',
      'EdDSA',
    ];
    const signers = await Promise.all(
      algs.map(async (alg) => {
        const { publicKey, privateKey } = await generateKeyPair(alg);
        const jwk = { ...(await exportJWK(publicKey)), kid: alg, alg, use: 'sig' };
        const sign = () =>
          new SignJWT({ sub: alg })
            .setProtectedHeader({ alg, kid: alg })
            .setExpirationTime('1h')
            .sign(privateKey);
        return { alg, jwk, sign };
      }),
    );
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: signers.map((s) => s.jwk) }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const guard = jwt({ jwksUrl: `http://127.0.0.1:${port}/jwks.json` });
      const accepted: string[] = [];
      for (const s of signers) {
        const r = await call(guard, { authorization: `Bearer ${await s.sign()}` });
        if (r.status === 200) accepted.push(s.alg);
      }
      expect(accepted).toEqual(algs);
      const hs = await call(guard, { authorization: `Bearer ${await hsToken({})}` });
      expect(hs.status).toBe(401);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('answers 503 when the key set does not answer in time (jose waits 5 s)', async () => {
    const server = createServer(() => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const guard = jwt({ jwksUrl: `http://127.0.0.1:${port}/jwks.json` });
      const rsToken = `${Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.c2ln`;
      const r = await call(guard, { authorization: `Bearer ${rsToken}` });
      expect(r.status).toBe(503);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 15_000);
});
