import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_JWT_SECRET } from '../../examples/basic/app.js';
import { exampleApp } from '../support/example-app.js';

function token(claims: Record<string, string>, secret = DEVELOPMENT_JWT_SECRET): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));
}

describe('GET /me of examples/basic', () => {
  it('answers the caller a valid JWT names', async () => {
    const app = await exampleApp({ port: 0, env: 'production' });
    const res = await app.inject({
      url: '/me',
      headers: { authorization: `Bearer ${await token({ sub: 'ada', name: 'Ada' })}` },
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'ada', name: 'Ada' });
  });

  it('refuses a missing token, one signed with another secret, and claims without a name', async () => {
    const app = await exampleApp({
      port: 0,
      env: 'production',
      jwtSecret: 'a-configured-secret-of-32-chars!!',
    });
    const other = await token({ sub: 'ada', name: 'Ada' });
    const nameless = await token({ sub: 'ada' }, 'a-configured-secret-of-32-chars!!');

    expect((await app.inject('/me')).statusCode).toBe(401);
    for (const t of [other, nameless]) {
      const res = await app.inject({ url: '/me', headers: { authorization: `Bearer ${t}` } });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toContain('invalid_token');
    }
  });
});
