import * as net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addFigures } from './figures.js';
import { killAll, startService } from './service-process.js';

afterEach(killAll);

const CLIENTS = 20;
const SEND_TIMEOUT_MS = 1_000;

interface Memory {
  rss: number;
  external: number;
  arrayBuffers: number;
}

async function memory(port: number): Promise<Memory> {
  return (await (await fetch(`http://127.0.0.1:${port}/memory`)).json()) as Memory;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

describe('the send timeout', () => {
  it(`drops ${CLIENTS} clients that never read an 8 MB answer after sendTimeoutMs, and the memory they held is released`, async ({
    task,
  }) => {
    const s = startService({ RELIABILITY_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS) });
    const port = await s.port;
    const before = await memory(port);
    const sockets = Array.from({ length: CLIENTS }, () => {
      const sock = net.connect(port, '127.0.0.1');
      sock.on('error', () => {});
      sock.write('GET /fault/big HTTP/1.1\r\nHost: x\r\n\r\n');
      // Never reads: the kernel's buffers fill, then the rest waits in the service.
      sock.pause();
      return sock;
    });
    while (s.entries.filter((e) => e.path === '/fault/big').length === 0) {
      const held = await memory(port);
      if (held.arrayBuffers > before.arrayBuffers + CLIENTS * 2 * 1024 * 1024) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const held = await memory(port);
    // The request log writes each dropped request's entry; wait for all of them (bounded).
    const until = Date.now() + SEND_TIMEOUT_MS * 10;
    while (
      s.entries.filter((e) => e.path === '/fault/big').length < CLIENTS &&
      Date.now() < until
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // Closing a socket releases its pending writes on a later turn of the service's loop.
    let after = await memory(port);
    for (let i = 0; i < 20 && after.arrayBuffers - before.arrayBuffers >= 8 * 1024 * 1024; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await memory(port);
    }
    for (const sock of sockets) sock.destroy();
    addFigures(task.meta, { requestsSent: CLIENTS + 3 });
    console.log(
      `send timeout: rss ${mb(before.rss)} before, ${mb(held.rss)} with ${CLIENTS} stalled readers, ` +
        `${mb(after.rss)} after they were dropped; array buffers ${mb(before.arrayBuffers)} → ` +
        `${mb(held.arrayBuffers)} → ${mb(after.arrayBuffers)}`,
    );

    const dropped = s.entries.filter((e) => e.path === '/fault/big');
    expect(dropped).toHaveLength(CLIENTS);
    for (const e of dropped) {
      expect(e).toMatchObject({ level: 'warn', status: 200 });
      expect(String(e.error)).toMatch(
        /^response cut off: send timeout: the client took no byte for 1000 ms/,
      );
    }
    // Held while the clients stalled: most of each 8 MB answer beyond what the kernel took.
    expect(held.arrayBuffers - before.arrayBuffers).toBeGreaterThan(CLIENTS * 2 * 1024 * 1024);
    // Released once they were dropped.
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(8 * 1024 * 1024);
    expect(after.rss).toBeLessThan(held.rss);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });
});
