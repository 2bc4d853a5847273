import { describe, expect, it, vi } from 'vitest';
import type { AppOptions } from '../../../src/index.js';
import { get } from '../../../src/index.js';
import { answers, expectSame, expectSameLogs, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

// Under inject() the peer is 127.0.0.1 on both engines.
const forwarded = { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };

function who(trustProxy: AppOptions['trustProxy']) {
  return twin(trustProxy === undefined ? {} : { trustProxy }, (app) =>
    app.addRoutes(get('/who', (c) => ({ ip: c.request.ip, hostname: c.request.hostname }))),
  );
}

describe('trustProxy on the Bun engine: c.request.ip as on the Fastify engine', () => {
  it.each([
    ['undefined', undefined, '127.0.0.1'],
    ['false', false, '127.0.0.1'],
    ['true', true, '203.0.113.7'],
    ['a CIDR that has not the peer', '10.0.0.0/8', '127.0.0.1'],
    ['a list of the peer and the proxy', ['127.0.0.1', '10.0.0.0/8'], '203.0.113.7'],
    ['the same as a comma-separated string', '127.0.0.1, 10.0.0.0/8', '203.0.113.7'],
    ['only the peer', '127.0.0.1', '10.0.0.1'],
  ] as const)('trustProxy %s', async (_name, trustProxy, ip) => {
    const t = who(trustProxy as AppOptions['trustProxy']);
    const res = await expectSame(t, {
      url: '/who',
      headers: { ...forwarded, host: 'api.example:8080' },
    });
    expect(res.json()).toEqual({ ip, hostname: 'api.example' });
    await expectSame(t, { url: '/who', headers: { host: 'api.example' } });
    expectSameLogs(t);
  });

  it('trustProxy as a hop count: the peer, as on the Fastify engine', async () => {
    const t = who(1 as never);
    const res = await expectSame(t, { url: '/who', headers: { ...forwarded, host: 'a.example' } });
    expect(res.json()).toEqual({ ip: '127.0.0.1', hostname: 'a.example' });
  });
});

describe('what c.request reads behind a proxy', () => {
  const reads = () =>
    twin({ trustProxy: true }, (app) =>
      app.addRoutes(
        get('/who', (c) => ({
          protocol: c.request.protocol,
          hostname: c.request.hostname,
          host: c.request.host ?? 'none',
        })),
      ),
    );

  it('protocol from X-Forwarded-Proto', async () => {
    const res = await answers(reads(), {
      url: '/who',
      headers: { host: 'x.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.bun.json().protocol).toBe(res.fastify.json().protocol);
  });

  it('hostname from X-Forwarded-Host', async () => {
    const res = await answers(reads(), {
      url: '/who',
      headers: { host: 'x.example', 'x-forwarded-host': 'api.example.com' },
    });
    expect(res.bun.json().hostname).toBe(res.fastify.json().hostname);
  });

  it('host, with its port', async () => {
    const res = await answers(reads(), { url: '/who', headers: { host: 'x.example:81' } });
    expect(res.bun.json().host).toBe(res.fastify.json().host);
  });

  it('port and hostname of the Host header', async () => {
    const t = twin({}, (app) =>
      app.addRoutes(get('/host', (c) => ({ port: c.request.port, hostname: c.request.hostname }))),
    );
    expect(
      (await expectSame(t, { url: '/host', headers: { host: 'a.example:81' } })).json(),
    ).toEqual({
      port: 81,
      hostname: 'a.example',
    });
    await expectSame(t, { url: '/host', headers: { host: 'a.example' } });
    const v6 = await expectSame(t, { url: '/host', headers: { host: '[::1]:8080' } });
    expect(v6.json()).toEqual({ port: 8080, hostname: '[::1]' });
    await expectSame(t, { url: '/host', headers: { host: '[::1]' } });
  });
});
