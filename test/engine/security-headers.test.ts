import { describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

describe('security headers', () => {
  it("sends OWASP's API headers on every answer by default, 404s and errors included", async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/ok', () => ({ ok: true })),
      get('/boom', () => {
        throw new Error('x');
      }),
    );
    for (const url of ['/ok', '/missing', '/boom', '/health']) {
      const res = await app.inject(url);
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      // The document-only headers of helmet are left to the docs page.
      expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("sends helmet's fuller set on the docs page, with a CSP that lets its own scripts run", async () => {
    const { app } = testApp();
    const res = await app.inject('/docs');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets a header the handler set win over the default, and still adds the others', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/framed', (c) => c.header('x-frame-options', 'SAMEORIGIN').reply.send('ok')),
    );
    const res = await app.inject('/framed');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("sends helmet's set with the given options on every answer", async () => {
    const { app } = testApp({
      helmet: { contentSecurityPolicy: false, frameguard: { action: 'deny' } },
    });
    app.addRoutes(get('/ok', () => 1));
    const res = await app.inject('/ok');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('runs per-request CSP directive functions on every request', async () => {
    let n = 0;
    const { app } = testApp({
      helmet: {
        contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => `'nonce-n${++n}'`] } },
      },
    });
    app.addRoutes(get('/ok', () => 1));
    const a = String((await app.inject('/ok')).headers['content-security-policy']);
    const b = String((await app.inject('/ok')).headers['content-security-policy']);
    expect(a).toContain("'nonce-n1'");
    expect(b).toContain("'nonce-n2'");
  });

  it('leaves the headers out with helmet: false', async () => {
    const { app } = testApp({ helmet: false });
    app.addRoutes(get('/ok', () => 1));
    const res = await app.inject('/ok');
    expect(res.headers['x-content-type-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect((await app.inject('/docs')).headers['content-security-policy']).toBeUndefined();
  });
});
