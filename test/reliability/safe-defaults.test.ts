import { describe, expect, it } from 'vitest';
import { get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { addFigures } from './figures.js';

const SECRET = 's3cr3t-7f1c9a';

function scriptSources(html: string): (string | null)[] {
  return [...html.matchAll(/<script\b([^>]*)>/gi)].map((m) => {
    const src = /\bsrc\s*=\s*"([^"]*)"/i.exec(m[1] ?? '');
    return src ? src[1]! : null;
  });
}

describe('safe defaults', () => {
  it('sends security headers on every answer, errors included, and no x-powered-by', async () => {
    const { app } = testApp();
    app.addRoutes(get('/ping', () => ({ ok: true })));
    for (const url of ['/ping', '/nowhere', '/health']) {
      const res = await app.inject(url);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('serves the docs page under a CSP that allows same-origin scripts, and the page has no inline script', async () => {
    const { app } = testApp();
    const res = await app.inject('/docs');
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    for (const src of scriptSources(res.body)) {
      expect(src).not.toBeNull();
      // Same origin: a path, not a URL to another host.
      expect(src).toMatch(/^\/(?!\/)/);
    }
  });

  it('leaves the security headers out with helmet: false, and takes helmet options as given', async () => {
    const off = testApp({ helmet: false }).app;
    const res = await off.inject('/health');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBeUndefined();
    const custom = testApp({
      helmet: { contentSecurityPolicy: false, frameguard: { action: 'deny' } },
    }).app;
    const res2 = await custom.inject('/health');
    expect(res2.headers['content-security-policy']).toBeUndefined();
    expect(res2.headers['x-frame-options']).toBe('DENY');
  });

  it('sets load-balancer-friendly server timeouts by default, and takes others', async () => {
    const { app } = testApp();
    await app.ready();
    expect(app.fastify.server.keepAliveTimeout).toBe(72_000);
    expect(app.fastify.server.requestTimeout).toBe(30_000);
    expect(app.fastify.server.headersTimeout).toBe(10_000);
    const tuned = testApp({
      keepAliveTimeoutMs: 65_000,
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 5_000,
    }).app;
    await tuned.ready();
    expect(tuned.fastify.server.keepAliveTimeout).toBe(65_000);
    expect(tuned.fastify.server.requestTimeout).toBe(20_000);
    expect(tuned.fastify.server.headersTimeout).toBe(5_000);
  });

  it('refuses a body over 1 MiB with a 413 problem', async () => {
    const { app } = testApp();
    app.addRoutes(post('/echo', (c) => c.body));
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: `"${'x'.repeat(1_048_576)}"`,
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('never writes authorization or cookie values to the log, whatever the answer', async ({
    task,
  }) => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/ok', () => ({ ok: true })),
      get('/boom', () => {
        throw new Error('boom');
      }),
    );
    const headers = {
      authorization: `Bearer ${SECRET}`,
      cookie: `session=${SECRET}`,
      'proxy-authorization': `Basic ${SECRET}`,
    };
    const urls = ['/ok', '/boom', '/nowhere', `/ok?token=x`];
    for (const url of urls) await app.inject({ url, headers });
    await app.inject({ method: 'DELETE', url: '/ok', headers });
    addFigures(task.meta, { requestsSent: urls.length + 1 });
    expect(lines.length).toBeGreaterThanOrEqual(urls.length + 1);
    expect(lines.filter((l) => l.includes(SECRET))).toEqual([]);
    expect(lines.filter((l) => /authorization|cookie/i.test(l))).toEqual([]);
  });

  it('answers an unexpected error with a generic 500 that echoes none of its internals', async ({
    task,
  }) => {
    const { app, lines } = testApp();
    const thrown: unknown[] = [
      new Error(`connect ECONNREFUSED db.internal:5432 password=${SECRET}`),
      Object.assign(new TypeError(`cannot read ${SECRET}`), { statusCode: 500, expose: true }),
      `a thrown string ${SECRET}`,
      { message: SECRET, statusCode: 503 },
      null,
    ];
    thrown.forEach((value, i) => {
      app.addRoutes(
        get(`/fail/${i}`, () => {
          throw value;
        }),
      );
    });
    for (let i = 0; i < thrown.length; i++) {
      const res = await app.inject(`/fail/${i}`);
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'An unexpected error occurred.',
        code: 'INTERNAL',
        requestId: res.headers['x-request-id'],
      });
      expect(res.body).not.toContain(SECRET);
    }
    // These 500s are the point of the test, not failures: they are left out of the 5xx figure.
    addFigures(task.meta, { requestsSent: thrown.length });
    // The cause goes to the log instead, at error level, for the operator.
    expect(lines.filter((l) => l.includes('"level":"error"')).length).toBe(thrown.length);
  });

  it('serves no docs in production', async () => {
    const { app } = testApp({ env: 'production' });
    expect((await app.inject('/docs')).statusCode).toBe(404);
    expect((await app.inject('/docs/openapi.json')).statusCode).toBe(404);
  });
});
