import * as net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, type ServiceProcess, startLogProcess } from '../support/log-process.js';

const fixture = fileURLToPath(new URL('../fixtures/shutdown-app.ts', import.meta.url));
afterEach(killAll);

const messages = (s: ServiceProcess) => s.entries.map((e) => String(e.message ?? ''));

/** Reads a response slowly: `chunk` bytes every `everyMs`. Resolves with the bytes received. */
function slowRead(port: number, path: string, chunk: number, everyMs: number) {
  let received = 0;
  const sock = net.connect(port, '127.0.0.1');
  sock.setNoDelay(true);
  sock.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const pump = setInterval(() => {
    let budget = chunk;
    while (budget > 0) {
      const got: Buffer | null = sock.read(Math.min(budget, sock.readableLength || 1));
      if (got === null) break;
      received += got.length;
      budget -= got.length;
    }
  }, everyMs);
  sock.pause();
  sock.on('readable', () => {});
  const started = new Promise<void>((resolve) => sock.once('readable', () => resolve()));
  const closed = new Promise<number>((resolve) =>
    sock.on('close', () => {
      clearInterval(pump);
      // What is still buffered on this side was delivered too.
      resolve(received + sock.readableLength);
    }),
  );
  sock.on('error', () => {});
  return { started, closed, received: () => received };
}

describe('shutdown under faults (child process, real signals and sockets)', () => {
  it('cuts off a client stalled mid-body after the drain share, logs it, and still runs the hooks', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '2000' });
    const port = await s.port;
    const sock = net.connect(port, '127.0.0.1');
    sock.on('error', () => {});
    sock.write(
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nonly ten b',
    );
    const closed = new Promise<void>((r) => sock.on('close', () => r()));
    await s.waitFor(/request started: POST \/upload/);
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const { code, at } = await s.exit;
    await closed;
    expect(messages(s)).toContain('shutdown hook ran');
    expect(messages(s).some((m) => /shutdown hook .* not run/.test(m))).toBe(false);
    const cut = s.entries.find((e) => e.path === '/upload');
    expect(cut).toMatchObject({ level: 'error', status: 503 });
    expect(String(cut?.error)).toMatch(
      /^request cut off before an answer: not answered within the drain's 1000 ms/,
    );
    expect(messages(s).some((m) => /drain: cut off 1 request/.test(m))).toBe(true);
    expect(code).toBe(1);
    // Drain share (1 s), then hooks: well before the 2 s deadline.
    expect(at - sentAt).toBeLessThan(1_900);
  });

  it('lets a response in flight to a slow reader finish before exiting, logged as a clean 200', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '15000' });
    const port = await s.port;
    const size = 6_000_000;
    const reader = slowRead(port, `/big/${size}`, 256 * 1024, 50);
    await reader.started;
    s.child.kill('SIGTERM');
    const received = await reader.closed;
    const { code } = await s.exit;
    expect(received).toBeGreaterThan(size);
    const entry = s.entries.find((e) => String(e.path).startsWith('/big/'));
    expect(entry).toMatchObject({ level: 'info', status: 200 });
    expect(entry?.error).toBeUndefined();
    expect(code).toBe(0);
  }, 30_000);

  it('cuts off a response still being sent at the deadline and logs it as cut off, not as a clean 200', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '1500' });
    const port = await s.port;
    const size = 20_000_000;
    const reader = slowRead(port, `/big/${size}`, 64 * 1024, 50);
    await reader.started;
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const received = await reader.closed;
    const { code, at } = await s.exit;
    expect(received).toBeLessThan(size);
    const entry = s.entries.find((e) => String(e.path).startsWith('/big/'));
    expect(entry).toMatchObject({ level: 'warn', status: 200 });
    expect(String(entry?.error)).toMatch(
      /^response cut off: the shutdown deadline passed \(\d+ bytes pending\)$/,
    );
    expect(messages(s)).toContain('shutdown hook ran');
    expect(code).toBe(1);
    expect(at - sentAt).toBeLessThan(2_500);
  });

  it('exits 1 by the deadline when the final log flush cannot finish (a stalled stdout reader)', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '1000' });
    const port = await s.port;
    s.child.stdout!.pause();
    // Far more log than the pipe holds, buffered in the service.
    await fetch(`http://127.0.0.1:${port}/log-flood/4096`);
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const { code, at } = await Promise.race([
      s.exit,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no exit in 5 s')), 5_000),
      ),
    ]);
    expect(code).toBe(1);
    expect(at - sentAt).toBeLessThan(2_000);
  });

  it('exits by its 2 s deadline with a stalled stdout reader, the dev panel teeing the log', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '2000', APP_ENV: 'development' });
    const port = await s.port;
    s.child.stdout!.pause();
    await fetch(`http://127.0.0.1:${port}/log-flood/4096`);
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const { code, at } = await s.exit;
    expect(code).toBe(1);
    expect(at - sentAt).toBeLessThan(3_000);
  });

  it('bounds the final flush for a slow stdout reader by the deadline', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '1000' });
    const port = await s.port;
    const stdout = s.child.stdout!;
    stdout.pause();
    await fetch(`http://127.0.0.1:${port}/log-flood/8192`);
    // A slow reader: a little every 100 ms.
    const slow = setInterval(() => stdout.read(16 * 1024), 100);
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const { code, at } = await s.exit;
    clearInterval(slow);
    expect(at - sentAt).toBeLessThan(2_000);
    expect(code).toBe(1);
  });
});
