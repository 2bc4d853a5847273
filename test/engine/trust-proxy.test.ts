import { describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

const forwarded = {
  'x-forwarded-for': '203.0.113.7',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'api.example.com',
};

function who() {
  return get('/who', (c) => ({
    ip: c.request.ip,
    protocol: c.request.protocol,
    host: c.request.host,
  }));
}

describe('trustProxy', () => {
  it('takes the client address, protocol and host from X-Forwarded-* behind a trusted proxy', async () => {
    const { app, lines } = testApp({ trustProxy: true });
    app.addRoutes(who());
    const res = await app.inject({ url: '/who', headers: forwarded, remoteAddress: '10.0.0.2' });
    expect(res.json()).toEqual({ ip: '203.0.113.7', protocol: 'https', host: 'api.example.com' });
    expect(requestEntries(lines).at(-1)?.ip).toBe('203.0.113.7');
  });

  it('trusts only the proxies it is given', async () => {
    const { app } = testApp({ trustProxy: '10.0.0.0/8' });
    app.addRoutes(who());
    const behind = await app.inject({ url: '/who', headers: forwarded, remoteAddress: '10.0.0.2' });
    expect(behind.json().ip).toBe('203.0.113.7');
    const spoofed = await app.inject({
      url: '/who',
      headers: forwarded,
      remoteAddress: '198.51.100.9',
    });
    expect(spoofed.json()).toMatchObject({ ip: '198.51.100.9', protocol: 'http' });
  });

  it('ignores X-Forwarded-* by default, and leaves the address out of the log', async () => {
    const { app, lines } = testApp();
    app.addRoutes(who());
    const res = await app.inject({ url: '/who', headers: forwarded, remoteAddress: '10.0.0.2' });
    expect(res.json()).toMatchObject({ ip: '10.0.0.2', protocol: 'http' });
    expect(requestEntries(lines).at(-1)).not.toHaveProperty('ip');
  });

  it('ignores X-Forwarded-* with trustProxy: false, and leaves the address out of the log', async () => {
    const { app, lines } = testApp({ trustProxy: false });
    app.addRoutes(who());
    const res = await app.inject({ url: '/who', headers: forwarded, remoteAddress: '10.0.0.2' });
    expect(res.json()).toMatchObject({ ip: '10.0.0.2', protocol: 'http' });
    expect(requestEntries(lines).at(-1)).not.toHaveProperty('ip');
  });
});
