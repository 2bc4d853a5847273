import * as http from 'node:http';
import * as net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, type ServiceProcess, startLogProcess } from './support/log-process.js';

const fixture = fileURLToPath(new URL('./fixtures/lifecycle-app.ts', import.meta.url));

interface Service extends ServiceProcess {
  url: Promise<string>;
}

afterEach(killAll);

function start(env: Record<string, string>): Service {
  const s = startLogProcess(fixture, env);
  const url = s.waitFor(/listening on/).then((e) => /(http:\/\/\S+)/.exec(String(e.message))![1]!);
  // A test that expects the process to fail never awaits the URL.
  url.catch(() => {});
  return Object.assign(s, { url });
}

const messages = (s: Service) =>
  s.entries.map((e) => String(e.message ?? `${e.method} ${e.path} ${e.status}`));

describe('lifecycle (child process, real signals)', () => {
  it('logs its URL, then on SIGTERM runs the hooks in order with one shared signal and exits 0', async () => {
    const s = start({ LIFECYCLE_MODE: 'order' });
    const url = await s.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    s.child.kill('SIGTERM');
    const { code } = await s.exit;
    expect(code).toBe(0);
    const hooks = messages(s).filter((m) => m.startsWith('hook'));
    expect(hooks).toEqual([
      'hook one start (same signal: true)',
      'hook one end (aborted: false)',
      'hook three start (same signal: true)',
      'hook three end (aborted: false)',
    ]);
    expect(messages(s)).toContain('listen resolved');
  });

  it('logs a hook that throws, runs the next one and exits 1', async () => {
    const s = start({ LIFECYCLE_MODE: 'throw' });
    await s.url;
    s.child.kill('SIGINT');
    const { code } = await s.exit;
    expect(code).toBe(1);
    const all = messages(s);
    expect(all.some((m) => /shutdown hook #2.* failed: Error: hook two failed/.test(m))).toBe(true);
    expect(all).toContain('hook three end (aborted: false)');
  });

  it("abandons a hook still running when the hooks' share of the 10 s deadline (9 s) ends, skips the rest and exits 1", async () => {
    const s = start({ LIFECYCLE_MODE: 'hang' });
    await s.url;
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const { code } = await s.exit;
    const elapsed = Date.now() - sentAt;
    expect(code).toBe(1);
    // The hung hook must not end the process early: it lives until the deadline.
    expect(elapsed).toBeGreaterThanOrEqual(8_500);
    expect(elapsed).toBeLessThan(11_000);
    const all = messages(s);
    expect(all.some((m) => /shutdown hook #2 abandoned/.test(m))).toBe(true);
    expect(all.some((m) => /shutdown hook #3 not run/.test(m))).toBe(true);
    expect(all).not.toContain('hook three start (same signal: true)');
  }, 20_000);

  it('lets an in-flight request finish while refusing new connections', async () => {
    const s = start({ LIFECYCLE_MODE: 'order' });
    const url = new URL(await s.url);
    const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: url.hostname, port: url.port, path: '/slow' }, (res) => {
          let body = '';
          res.on('data', (d) => {
            body += String(d);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    await s.waitFor(/slow request started/);
    s.child.kill('SIGTERM');
    await s.waitFor(/SIGTERM received/);
    const refused = await new Promise<string>((resolve) => {
      const sock = net.connect(Number(url.port), url.hostname);
      sock.on('connect', () => {
        sock.destroy();
        resolve('connected');
      });
      sock.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    const res = await slow;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ done: true });
    expect((await s.exit).code).toBe(0);
    expect(s.entries.some((e) => e.path === '/slow' && e.status === 200)).toBe(true);
  });

  it('exits at once on a second signal during shutdown', async () => {
    const s = start({ LIFECYCLE_MODE: 'hang' });
    await s.url;
    s.child.kill('SIGTERM');
    await s.waitFor(/hook two start/);
    const sentAt = Date.now();
    s.child.kill('SIGINT');
    const { code } = await s.exit;
    expect(code).toBe(1);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    expect(messages(s).some((m) => /SIGINT received again during shutdown/.test(m))).toBe(true);
  });

  it('exits 1 naming the port when the port is already in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const s = start({ LIFECYCLE_MODE: 'order', PORT: String(port) });
      const { code } = await s.exit;
      expect(code).toBe(1);
      const last = s.entries.at(-1);
      expect(last).toMatchObject({ level: 'error' });
      expect(String(last?.message)).toContain(`port ${port} is already in use`);
      expect(messages(s).some((m) => /listening on/.test(m))).toBe(false);
    } finally {
      blocker.close();
    }
  });
});
