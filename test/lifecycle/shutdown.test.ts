import * as net from 'node:net';
import { describe, expect, it } from 'vitest';
import { App, type AppOptions, get, post } from '../../src/index.js';
import { runHooks, shutdownShares } from '../../src/lifecycle/index.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';

/** An app listening on a free port in this process, its JSON log kept in memory. */
async function listening(options: Partial<AppOptions> = {}) {
  const entries: Record<string, unknown>[] = [];
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const logger = newLoggerWithFormat(false, LogFormat.JSON).withWriter({
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (!line) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        entries.push(entry);
        const text = String(entry.message ?? entry.error ?? '');
        for (const w of [...waiters]) if (w.pattern.test(text)) w.resolve();
      }
    },
  });
  const app = new App({
    serviceName: 'in-process',
    port: 0,
    host: '127.0.0.1',
    logger,
    ...options,
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      if (entries.some((e) => pattern.test(String(e.message ?? e.error ?? '')))) resolve();
      else waiters.push({ pattern, resolve });
    });
  const hooksRun: string[] = [];
  app.onShutdown(function last() {
    hooksRun.push('last');
  });
  app.addRoutes(
    post('/upload', (c) => ({ length: String(c.body).length })),
    get('/big/:bytes', (c) => Buffer.alloc(Number((c.params as { bytes: string }).bytes), 'b')),
  );
  const served = app.listen();
  await waitFor(/listening on/);
  const port = Number(new URL(app.address!).port);
  return { app, entries, waitFor, hooksRun, served, port };
}

function rawSocket(port: number, request: string) {
  const sock = net.connect(port, '127.0.0.1');
  sock.on('error', () => {});
  sock.write(request);
  const closed = new Promise<void>((r) => sock.on('close', () => r()));
  return { sock, closed };
}

describe('shutdownShares', () => {
  it('gives the drain half the deadline and the final flush the last tenth, at most 1 s', () => {
    expect(shutdownShares(10_000)).toEqual({ drainMs: 5_000, hooksMs: 9_000 });
    expect(shutdownShares(1_000)).toEqual({ drainMs: 500, hooksMs: 900 });
    expect(shutdownShares(60_000)).toEqual({ drainMs: 30_000, hooksMs: 59_000 });
    expect(shutdownShares(1)).toEqual({ drainMs: 0, hooksMs: 0 });
  });
});

describe('runHooks', () => {
  const quiet = newLoggerWithFormat(false, LogFormat.JSON);
  function memory() {
    const lines: string[] = [];
    return { lines, logger: quiet.withWriter({ write: (l: string) => lines.push(l) }) };
  }

  it('runs the hooks in order with one signal, logs one that throws and still runs the next', async () => {
    const { lines, logger } = memory();
    const seen: [string, AbortSignal][] = [];
    const signal = new AbortController().signal;
    const ok = await runHooks(
      [
        (s) => void seen.push(['a', s]),
        function b() {
          throw new Error('b broke');
        },
        async (s) => void seen.push(['c', s]),
      ],
      signal,
      logger,
    );
    expect(ok).toBe(false);
    expect(seen.map(([n]) => n)).toEqual(['a', 'c']);
    expect(seen.every(([, s]) => s === signal)).toBe(true);
    expect(lines.join('')).toMatch(/shutdown hook #2 \(b\) failed: Error: b broke/);
  });

  it('abandons the hook running when the signal aborts and skips the rest, logging each', async () => {
    const { lines, logger } = memory();
    const controller = new AbortController();
    let thirdRan = false;
    const ok = await runHooks(
      [
        () => {
          controller.abort();
          return new Promise<void>(() => {});
        },
        () => {
          thirdRan = true;
        },
      ],
      controller.signal,
      logger,
    );
    expect(ok).toBe(false);
    expect(thirdRan).toBe(false);
    const text = lines.join('');
    expect(text).toMatch(/shutdown hook #1 abandoned: still running at the shutdown deadline/);
    expect(text).toMatch(/shutdown hook #2 not run: the shutdown deadline passed/);
  });

  it('resolves true when every hook finished', async () => {
    const { logger } = memory();
    expect(await runHooks([() => {}, async () => {}], new AbortController().signal, logger)).toBe(
      true,
    );
  });
});

describe('app.close() on a listening app (in process, real sockets)', () => {
  it('cuts off a request stalled mid-body once the drain share ends, runs the hooks and resolves false', async () => {
    const { app, entries, waitFor, hooksRun, served } = await listening({
      shutdownTimeoutMs: 2_000,
    });
    const port = Number(new URL(app.address!).port);
    const received = new Promise((r) => app.fastify.server.once('request', r));
    const { closed } = rawSocket(
      port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nabc',
    );
    // The request is in: its body is still arriving, and the drain waits for it.
    await received;
    const started = performance.now();
    const ok = await app.close();
    const took = performance.now() - started;
    await closed;
    await served;
    expect(ok).toBe(false);
    expect(hooksRun).toEqual(['last']);
    await waitFor(/request cut off before an answer/);
    expect(entries.find((e) => e.path === '/upload')).toMatchObject({
      status: 503,
      level: 'error',
    });
    // Cut at the drain's 1000 ms, well before the hooks' deadline at 1800 ms.
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(1_700);
  });

  it('closes idle keep-alive connections at once and resolves true when nothing is in flight', async () => {
    const { app, hooksRun, served, port } = await listening({ shutdownTimeoutMs: 2_000 });
    const { sock, closed } = rawSocket(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => sock.once('data', r));
    const started = performance.now();
    expect(await app.close()).toBe(true);
    await closed;
    await served;
    expect(performance.now() - started).toBeLessThan(500);
    expect(hooksRun).toEqual(['last']);
  });
});

describe('a connection upgraded to another protocol', () => {
  it('is left to its owner at drain time, not closed as an idle HTTP connection', async () => {
    const { app, served, port } = await listening({ shutdownTimeoutMs: 2_000 });
    let upgraded: net.Socket | undefined;
    app.fastify.server.on('upgrade', (_req, socket: net.Socket) => {
      socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n',
      );
      upgraded = socket;
    });
    const { sock, closed } = rawSocket(
      port,
      'GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n',
    );
    let text = '';
    sock.on('data', (d) => {
      text += String(d);
    });
    while (!text.includes('101')) await new Promise((r) => sock.once('data', r));
    const closing = app.close();
    // The owner ends its protocol a little after shutdown begins, with a last message.
    setTimeout(() => upgraded?.end('bye'), 100);
    await closed;
    expect(text.endsWith('bye')).toBe(true);
    expect(await closing).toBe(true);
    await served;
  });
});

describe('the send timeout (in process, real sockets)', () => {
  it('drops a client that reads nothing of a large response and logs the request as cut off', async () => {
    const { app, entries, waitFor, served, port } = await listening({ sendTimeoutMs: 200 });
    const { sock, closed } = rawSocket(port, 'GET /big/16000000 HTTP/1.1\r\nHost: x\r\n\r\n');
    sock.pause();
    await waitFor(/send timeout/);
    // The server dropped the connection: once this side reads what the kernel held, it closes.
    sock.resume();
    await closed;
    const entry = entries.find((e) => String(e.path).startsWith('/big/'));
    expect(entry).toMatchObject({ status: 200, level: 'warn' });
    expect(String(entry?.error)).toMatch(
      /^response cut off: send timeout: the client took no byte for 200 ms \(\d+ bytes pending\)$/,
    );
    expect(await app.close()).toBe(true);
    await served;
  });

  it('keeps a client that reads slowly but steadily', async () => {
    const { app, entries, served, port } = await listening({ sendTimeoutMs: 300 });
    const { sock, closed } = rawSocket(
      port,
      'GET /big/3000000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    sock.pause();
    let received = 0;
    const pump = setInterval(() => {
      for (let chunk = sock.read(); chunk !== null; chunk = sock.read()) received += chunk.length;
    }, 50);
    await closed;
    clearInterval(pump);
    expect(received).toBeGreaterThan(3_000_000);
    const entry = entries.find((e) => String(e.path).startsWith('/big/'));
    expect(entry).toMatchObject({ status: 200, level: 'info' });
    expect(entry?.error).toBeUndefined();
    await app.close();
    await served;
  });
});
