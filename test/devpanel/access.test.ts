import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, startLogProcess } from '../support/log-process.js';
import { PLANTED } from './fixtures/planted.js';

// Who reaches the dev panel, over real sockets in a child process: the env it is on in, the
// clients and Host names it answers, and no CORS on its routes.

const fixture = fileURLToPath(new URL('./fixtures/panel-app.ts', import.meta.url));

afterEach(killAll);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET over a real socket: `host` is the Host header, `from` the local address to send from. */
function get(
  address: string,
  port: number,
  path: string,
  o: { host?: string; from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: address,
        port,
        path,
        localAddress: o.from,
        headers: { host: o.host ?? `localhost:${port}`, ...o.headers },
        timeout: 5_000,
      },
      (res) => {
        // The event stream never ends: its status and headers are the answer.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          resolve({ status: res.statusCode!, headers: res.headers, body: '' });
          res.destroy();
          return;
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject).end();
  });
}

function start(env: Record<string, string>) {
  return startLogProcess(fixture, { NODE_ENV: 'development', ...env });
}

/** A non-loopback IPv4 address of this machine, to be a client from elsewhere. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('the dev panel env', () => {
  it('is off, with the docs, when env is not given and NODE_ENV is production, and the startup line says why', async () => {
    const s = start({ NODE_ENV: 'production' });
    const port = await s.port;
    expect((await get('127.0.0.1', port, '/_keelson')).status).toBe(404);
    expect((await get('127.0.0.1', port, '/_keelson/api/state')).status).toBe(404);
    expect((await get('127.0.0.1', port, '/docs/openapi.json')).status).toBe(404);
    expect((await get('127.0.0.1', port, '/ping')).status).toBe(200);
    const line = String((await s.waitFor(/listening on/)).message);
    expect(line).toMatch(
      /^panel-svc listening on http:\/\/127\.0\.0\.1:\d+ \(env production, from NODE_ENV\)$/,
    );
  });

  it('is on in development from NODE_ENV, and the startup line says so', async () => {
    const s = start({});
    const port = await s.port;
    expect((await get('127.0.0.1', port, '/_keelson')).status).toBe(200);
    expect(String((await s.waitFor(/listening on/)).message)).toMatch(
      /\(docs: http:\/\/127\.0\.0\.1:\d+\/docs\) \(env development, from NODE_ENV\)$/,
    );
  });
});

describe('the startup line', () => {
  it('says the env is the default when neither env nor NODE_ENV names one', async () => {
    const s = start({ NODE_ENV: 'test' });
    await s.port;
    expect(String((await s.waitFor(/listening on/)).message)).toMatch(
      /\(env development, the default: set env or NODE_ENV\)$/,
    );
  });
});

describe('the dev panel across origins', () => {
  it('sends no CORS headers on its routes, while the API keeps them', async () => {
    const s = start({});
    const port = await s.port;
    const origin = { origin: 'https://evil.example' };
    for (const path of [
      '/_keelson',
      '/_keelson/api/state',
      '/_keelson/api/health',
      '/_keelson/api/events',
    ]) {
      const res = await get('127.0.0.1', port, path, { headers: origin });
      expect(res.status, path).toBe(200);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    }
    const api = await get('127.0.0.1', port, '/ping', { headers: origin });
    expect(api.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses a Host that is not this machine (DNS rebinding), on every route of the panel', async () => {
    const s = start({});
    const port = await s.port;
    for (const path of [
      '/_keelson',
      '/_keelson/api/state',
      '/_keelson/api/events',
      '/_keelson/assets/panel.js',
    ]) {
      const res = await get('127.0.0.1', port, path, { host: `rebind.evil.example:${port}` });
      expect(res.status, path).toBe(403);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(res.body, path).not.toContain('panel-svc');
    }
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      'localhost',
      `app.localhost:${port}`,
    ]) {
      expect((await get('127.0.0.1', port, '/_keelson/api/state', { host })).status, host).toBe(
        200,
      );
    }
    // The API itself answers any Host.
    const api = await get('127.0.0.1', port, '/ping', { host: 'rebind.evil.example' });
    expect(api.status).toBe(200);
  });

  it('refuses a request a proxy on this machine forwarded, unless allowRemote', async () => {
    const s = start({});
    const port = await s.port;
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ]) {
      const res = await get('127.0.0.1', port, '/_keelson/api/state', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    const open = start({ PANEL_OPTIONS: JSON.stringify({ allowRemote: true }) });
    const openPort = await open.port;
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    expect((await get('127.0.0.1', openPort, '/_keelson/api/state', { headers })).status).toBe(200);
  });

  it('answers a Host listed in devPanel.hosts', async () => {
    const s = start({ PANEL_OPTIONS: JSON.stringify({ hosts: ['dev.internal'] }) });
    const port = await s.port;
    const ok = await get('127.0.0.1', port, '/_keelson/api/state', {
      host: `dev.internal:${port}`,
    });
    expect(ok.status).toBe(200);
    const other = await get('127.0.0.1', port, '/_keelson/api/state', { host: 'other.internal' });
    expect(other.status).toBe(403);
  });
});

describe.runIf(outside)('the dev panel and clients on other machines', () => {
  it('refuses a client that is not on loopback, even on 0.0.0.0 with its address as Host', async () => {
    const s = start({ PANEL_HOST: '0.0.0.0' });
    const port = await s.port;
    const from = outside!;
    for (const path of ['/_keelson', '/_keelson/api/state', '/_keelson/api/events']) {
      const res = await get(from, port, path, { from, host: `${from}:${port}` });
      expect(res.status, path).toBe(403);
      expect(JSON.parse(res.body).detail).toMatch(/devPanel\.allowRemote/);
    }
    expect((await get(from, port, '/ping', { from, host: `${from}:${port}` })).status).toBe(200);
    expect((await get('127.0.0.1', port, '/_keelson/api/state')).status).toBe(200);
  });

  it('answers a client from elsewhere with devPanel.allowRemote', async () => {
    const s = start({
      PANEL_HOST: '0.0.0.0',
      PANEL_OPTIONS: JSON.stringify({ allowRemote: true }),
    });
    const port = await s.port;
    const from = outside!;
    const res = await get(from, port, '/_keelson/api/state', { from, host: `${from}:${port}` });
    expect(res.status).toBe(200);
  });
});

describe('the dev panel config', () => {
  it('shows none of the planted secrets over the socket', async () => {
    const extra = Object.assign({}, ...PLANTED.map(([, config]) => config));
    const s = start({ PANEL_EXTRA: JSON.stringify(extra) });
    const port = await s.port;
    const state = await get('127.0.0.1', port, '/_keelson/api/state');
    expect(state.status).toBe(200);
    const shown = JSON.stringify(JSON.parse(state.body).config);
    for (const [where, , secret] of PLANTED) expect(shown, where).not.toContain(secret);
    expect(JSON.parse(state.body).config.database).toBe('postgres://user:••••••@host/db');
  });
});

describe('the dev panel log stream', () => {
  it('masks secrets in the log lines it streams', async () => {
    const s = start({});
    const port = await s.port;
    expect((await get('127.0.0.1', port, '/log')).status).toBe(200);
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/_keelson/api/events', timeout: 5_000 },
        (res) => {
          let seen = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            seen += d;
            if (seen.includes('connecting to')) {
              res.destroy();
              resolve(seen);
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('no log line in the stream')));
      req.on('error', reject).end();
    });
    for (const secret of ['json-field-pw', 'tok-123456', 'url-pw-123']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('postgres://app:••••••@db/app');
    // The service's own log (stdout) is left as the service wrote it.
    expect(String((await s.waitFor(/connecting to/)).message)).toContain('url-pw-123');
  });
});
