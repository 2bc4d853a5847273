import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { jwt, memoryRefreshStore } from '../../src/auth/index.js';
import { guarded, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { SECRET } from './support.js';

// A guard issues the tokens it accepts: sign() and refreshTokens() share its secret, issuer,
// audience, algorithm and claims schema, so a service never sets them twice.

const Claims = z.object({ sub: z.string(), role: z.enum(['user', 'admin']) });
const options = { secret: SECRET, issuer: 'users-api', audience: 'web', claims: Claims };

function appWith(auth: ReturnType<typeof jwt<typeof Claims>>) {
  const { app } = testApp();
  const authed = guarded(auth);
  const sessions = auth.refreshTokens({ ttl: '1h', accessTtl: 300 });
  const Token = z.object({ refreshToken: z.string() });
  app.addRoutes(
    authed.get('/me', (c) => ({ sub: c.user.sub, role: c.user.role })),
    post('/login', { body: Claims }, (c) => sessions.issue(c.body)),
    post('/refresh', { body: Token }, (c) => sessions.rotate(c.body.refreshToken)),
    post('/logout', { body: Token }, async (c) => {
      await sessions.revoke(c.body.refreshToken);
      return c.noContent();
    }),
  );
  return app;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('jwt().sign()', () => {
  it('signs a token the same guard accepts, with its issuer, audience and algorithm', async () => {
    const auth = jwt({ ...options, algorithms: ['HS512'] });
    const token = await auth.sign({ sub: 'u1', role: 'admin' }, { expiresIn: '1h' });

    const res = await appWith(auth).inject({ url: '/me', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sub: 'u1', role: 'admin' });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ iss: 'users-api', aud: 'web', sub: 'u1', role: 'admin' });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(decodeProtectedHeader(token).alg).toBe('HS512');
  });

  it('lives 15 minutes by default, or the seconds given', async () => {
    const auth = jwt(options);
    const short = decodeJwt(await auth.sign({ sub: 'u', role: 'user' }));
    expect(short.exp! - short.iat!).toBe(900);
    const given = decodeJwt(await auth.sign({ sub: 'u', role: 'user' }, { expiresIn: 60 }));
    expect(given.exp! - given.iat!).toBe(60);
  });

  it('types its claims by the claims schema and refuses claims the guard would refuse', async () => {
    const auth = jwt(options);
    expectTypeOf(auth.sign).parameter(0).toEqualTypeOf<{ sub: string; role: 'user' | 'admin' }>();

    // @ts-expect-error the role is not one the schema takes
    await expect(auth.sign({ sub: 'u', role: 'root' })).rejects.toThrow(/claims schema.*role/);
    await expect(auth.sign({ sub: 'u', role: 'user' }, { expiresIn: -1 })).rejects.toThrow(
      /expiresIn/,
    );
  });

  it('cannot sign for a guard that verifies with a JWKS, and says why', async () => {
    const auth = jwt({ jwksUrl: 'http://127.0.0.1:9/jwks.json' });
    await expect(auth.sign({ sub: 'u' })).rejects.toThrow(/JWKS.*private key/);
    expect(() => auth.refreshTokens()).toThrow(/JWKS/);
  });
});

describe('jwt().refreshTokens()', () => {
  async function login(app: ReturnType<typeof appWith>) {
    const res = await app.inject({
      method: 'POST',
      url: '/login',
      payload: { sub: 'u1', role: 'user' },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ accessToken: string; refreshToken: string; expiresIn: number }>();
  }
  const refresh = (app: ReturnType<typeof appWith>, refreshToken: string) =>
    app.inject({ method: 'POST', url: '/refresh', payload: { refreshToken } });

  it('issues a pair at login, whose access token opens guarded routes', async () => {
    const app = appWith(jwt(options));
    const pair = await login(app);

    expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 300 });
    const me = await app.inject({ url: '/me', headers: bearer(pair.accessToken) });
    expect(me.json()).toEqual({ sub: 'u1', role: 'user' });
  });

  it('rotates: a refresh token gives a new pair once, and a second use ends the login', async () => {
    const app = appWith(jwt(options));
    const first = await login(app);

    const second = (await refresh(app, first.refreshToken)).json<typeof first>();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await app.inject({ url: '/me', headers: bearer(second.accessToken) })).json()).toEqual({
      sub: 'u1',
      role: 'user',
    });

    const replay = await refresh(app, first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.headers['content-type']).toContain('application/problem+json');
    expect(replay.json<{ detail: string }>().detail).toMatch(/used before/);
    // The thief's replay ended the login: the legitimate holder's newer token is refused too.
    expect((await refresh(app, second.refreshToken)).statusCode).toBe(401);
  });

  it('refuses a refresh token as an access token, and an access token as a refresh token', async () => {
    const app = appWith(jwt(options));
    const pair = await login(app);

    const asAccess = await app.inject({ url: '/me', headers: bearer(pair.refreshToken) });
    expect(asAccess.statusCode).toBe(401);
    expect(asAccess.headers['www-authenticate']).toContain('invalid_token');
    expect((await refresh(app, pair.accessToken)).statusCode).toBe(401);
    expect((await refresh(app, 'garbage')).statusCode).toBe(401);
  });

  it('ends a login on logout', async () => {
    const app = appWith(jwt(options));
    const pair = await login(app);

    const out = await app.inject({ method: 'POST', url: '/logout', payload: pair });
    expect(out.statusCode).toBe(204);
    expect((await refresh(app, pair.refreshToken)).statusCode).toBe(401);
  });

  it('refuses a refresh token of another secret or issuer', async () => {
    const other = jwt({ ...options, issuer: 'someone-else' }).refreshTokens();
    const { refreshToken } = await other.issue({ sub: 'u1', role: 'admin' });
    expect((await refresh(appWith(jwt(options)), refreshToken)).statusCode).toBe(401);
  });

  it('reloads the claims on rotation, and ends the login when update gives none', async () => {
    const sessions = jwt(options).refreshTokens({ store: memoryRefreshStore() });
    const first = await sessions.issue({ sub: 'u1', role: 'user' });

    const promoted = await sessions.rotate(first.refreshToken, (c) => ({ ...c, role: 'admin' }));
    expect(decodeJwt(promoted.accessToken)).toMatchObject({ sub: 'u1', role: 'admin' });
    await expect(sessions.rotate(promoted.refreshToken, () => undefined)).rejects.toMatchObject({
      statusCode: 401,
    });
  });
});
