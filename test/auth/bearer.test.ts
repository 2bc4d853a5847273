import { describe, expect, it } from 'vitest';
import { apiKey, bearer } from '../../src/auth/index.js';
import { middlewareDocsOf } from '../../src/extend/index.js';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { rawGet } from './support.js';

const USERS = new Map([['opaque-token-1', { id: 1, name: 'ada' }]]);

function appWith(guard: ReturnType<typeof bearer>) {
  const { app, lines } = testApp();
  app.addRoutes(get('/me', { middleware: [guard] }, (c) => ({ user: c.user ?? null })));
  return { app, lines };
}

describe('bearer()', () => {
  const guard = bearer({ verify: (token) => USERS.get(token) });

  it('sets c.user to what verify returns', async () => {
    const res = await appWith(guard).app.inject({
      url: '/me',
      headers: { authorization: 'Bearer opaque-token-1' },
    });

    expect(res.json()).toEqual({ user: { id: 1, name: 'ada' } });
  });

  it('answers 401 invalid_token when verify returns undefined, and logs no token', async () => {
    const { app, lines } = appWith(guard);
    const res = await app.inject({
      url: '/me',
      headers: { authorization: 'Bearer unknown-secret-token' },
    });

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer error="invalid_token", error_description="The token is not valid."',
    );
    expect(lines.join('\n') + res.body).not.toContain('unknown-secret-token');
  });

  it('answers 401 with the bare challenge when there is no token', async () => {
    const res = await appWith(guard).app.inject('/me');

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('never calls verify for a 100 KB token', async () => {
    let calls = 0;
    const counting = bearer({
      verify: () => {
        calls++;
        return undefined;
      },
    });
    const res = await appWith(counting).app.inject({
      url: '/me',
      headers: { authorization: `Bearer ${'x'.repeat(100 * 1024)}` },
    });

    expect(res.statusCode).toBe(401);
    expect(calls).toBe(0);
  });

  it('lets a request without credentials through when optional', async () => {
    const res = await appWith(bearer({ verify: (t) => USERS.get(t), optional: true })).app.inject(
      '/me',
    );

    expect(res.json()).toEqual({ user: null });
  });

  it('declares the bearer scheme, and {} too when optional', () => {
    expect(middlewareDocsOf(guard)?.security).toEqual([{ bearerAuth: [] }]);
    expect(middlewareDocsOf(bearer({ verify: () => 1, optional: true }))?.security).toEqual([
      { bearerAuth: [] },
      {},
    ]);
  });
});

describe('apiKey()', () => {
  const guard = apiKey({ verify: (key) => (key === 'k-123' ? { service: 'billing' } : undefined) });

  it('reads x-api-key by default and sets c.user', async () => {
    const res = await appWith(guard).app.inject({ url: '/me', headers: { 'x-api-key': 'k-123' } });

    expect(res.json()).toEqual({ user: { service: 'billing' } });
  });

  it('reads the header it is given', async () => {
    const custom = apiKey({
      header: 'X-Service-Key',
      verify: (k) => (k === 'k' ? 'svc' : undefined),
    });
    const res = await appWith(custom).app.inject({ url: '/me', headers: { 'x-service-key': 'k' } });

    expect(res.json()).toEqual({ user: 'svc' });
    expect(middlewareDocsOf(custom)?.securitySchemes).toEqual({
      serviceKeyAuth: { type: 'apiKey', in: 'header', name: 'x-service-key' },
    });
  });

  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-api-key': 'nope' }],
    ['an empty key', { 'x-api-key': '' }],
    ['a 100 KB key', { 'x-api-key': 'k'.repeat(100 * 1024) }],
  ])('answers 401 with an ApiKey challenge for %s', async (_name, headers) => {
    const res = await appWith(guard).app.inject({ url: '/me', headers });

    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('ApiKey header="x-api-key"');
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 401 for two x-api-key headers on a real socket', async () => {
    const res = await rawGet(appWith(guard).app, '/me', [
      ['x-api-key', 'k-123'],
      ['x-api-key', 'k-123'],
    ]);

    expect(res.status).toBe(401);
  });
});
