import { describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

describe('security headers', () => {
  it("sends helmet's headers on every answer, 404s and errors included, CSP without upgrade-insecure-requests", async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/ok', () => ({ ok: true })),
      get('/boom', () => {
        throw new Error('x');
      }),
    );
    for (const url of ['/ok', '/missing', '/boom']) {
      const res = await app.inject(url);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('runs per-request CSP directive functions on every request', async () => {
    let n = 0;
    const { app } = testApp({
      helmet: {
        contentSecurityPolicy: {
          directives: { scriptSrc: ["'self'", () => `'nonce-n${++n}'`] },
        },
      },
    });
    app.addRoutes(get('/ok', () => 1));
    const a = String((await app.inject('/ok')).headers['content-security-policy']);
    const b = String((await app.inject('/ok')).headers['content-security-policy']);
    expect(a).toContain("'nonce-n1'");
    expect(b).toContain("'nonce-n2'");
  });

  it('takes helmet options as given and leaves the headers out with helmet: false', async () => {
    const { app } = testApp({
      helmet: { contentSecurityPolicy: false, frameguard: { action: 'deny' } },
    });
    app.addRoutes(get('/ok', () => 1));
    const res = await app.inject('/ok');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBeUndefined();
    const { app: off } = testApp({ helmet: false });
    off.addRoutes(get('/ok', () => 1));
    expect((await off.inject('/ok')).headers['x-content-type-options']).toBeUndefined();
  });
});
