import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { killAll, startLogProcess } from '../support/log-process.js';
import { rawWebSocket } from '../support/websocket-raw.js';
import { addFigures } from './figures.js';

const fixture = fileURLToPath(new URL('../fixtures/websocket-app.ts', import.meta.url));
const sockets: { destroy(): void }[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  killAll();
});

const MESSAGES = 10_000;
const MESSAGE = Buffer.alloc(64 * 1024, 0x61);
const FLOOD_MS = 2_500;
// The client keeps no more than this unsent: its own memory stays bounded when the server
// pushes back.
const CLIENT_BUFFER = 8 * 1024 * 1024;

async function stats(port: number, path = '/stats') {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return (await res.json()) as { rssMb: number; peakRssMb?: number; handled?: number };
}

/**
 * Sends up to MESSAGES messages of 64 KiB for at most FLOOD_MS, as fast as the connection takes
 * them. Resolves with how many were sent.
 */
async function flood(client: WebSocket): Promise<number> {
  const until = Date.now() + FLOOD_MS;
  let sent = 0;
  while (sent < MESSAGES && Date.now() < until && client.readyState === WebSocket.OPEN) {
    sent++;
    if (client.bufferedAmount < CLIENT_BUFFER) client.send(MESSAGE);
    // Wait until this one has gone out: the server takes what it reads, or stops reading.
    else await new Promise((resolve) => client.send(MESSAGE, resolve));
  }
  return sent;
}

describe('WebSocket flood and shutdown (child process)', () => {
  it(`keeps RSS flat while one client sends ${MESSAGES} x 64 KiB to a 20 ms handler, then shuts down at once after it leaves`, async ({
    task,
  }) => {
    const s = startLogProcess(fixture, { HANDLER_MS: '20' });
    const port = await s.port;
    const { rssMb: beforeMb } = await stats(port, '/reset');
    const client = new WebSocket(`ws://127.0.0.1:${port}/slow`);
    sockets.push({ destroy: () => client.terminate() });
    client.on('error', () => {});
    await new Promise((resolve) => client.once('message', resolve));
    const started = Date.now();
    const sent = await flood(client);
    const floodMs = Date.now() - started;
    const { peakRssMb, handled } = await stats(port);
    client.terminate();
    const signalledAt = Date.now();
    s.child.kill('SIGTERM');
    const exit = await s.exit;
    const shutdownMs = exit.at - signalledAt;
    const peak = peakRssMb ?? 0;
    process.stdout.write(
      `websocket flood: ${sent} x 64 KiB sent in ${floodMs} ms to a 20 ms handler (${handled} handled); ` +
        `service RSS ${beforeMb} MiB before, peak ${peak} MiB (+${peak - beforeMb} MiB); ` +
        `client left, SIGTERM: exit ${exit.code} after ${shutdownMs} ms\n`,
    );
    addFigures(task.meta, {
      requestsSent: sent + 3,
      wsFloodRssBeforeMb: beforeMb,
      wsFloodPeakRssMb: peak,
    });
    // Read as fast as it came, the flood would hold hundreds of MiB.
    expect(peak - beforeMb).toBeLessThan(50);
    expect(exit.code).toBe(0);
    // The messages left waiting are dropped with the client: nothing holds the shutdown.
    expect(shutdownMs).toBeLessThan(3_000);
    expect(s.entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('exits 0 soon after SIGTERM with 200 clients that ignore the close frame, each logged as closed at shutdown', async ({
    task,
  }) => {
    const s = startLogProcess(fixture);
    const port = await s.port;
    const clients = await Promise.all(
      Array.from({ length: 200 }, () => rawWebSocket(port, '/echo')),
    );
    sockets.push(...clients.map((c) => c.socket));
    const signalledAt = Date.now();
    s.child.kill('SIGTERM');
    const exit = await s.exit;
    const shutdownMs = exit.at - signalledAt;
    const entries = s.entries.filter((e) => 'method' in e);
    const closedAtShutdown = entries.filter(
      (e) =>
        e.status === 101 && e.error === 'closed at shutdown: no close frame back within 1000 ms',
    );
    process.stdout.write(
      `websocket shutdown: 200 clients ignoring the close frame, exit ${exit.code} after ${shutdownMs} ms; ` +
        `${closedAtShutdown.length} logged as closed at shutdown, ${entries.length - closedAtShutdown.length} otherwise\n`,
    );
    addFigures(task.meta, {
      requestsSent: 200,
      wsDeafShutdownExitCode: exit.code ?? -1,
      wsDeafShutdownMs: shutdownMs,
    });
    expect(exit.code).toBe(0);
    expect(shutdownMs).toBeLessThan(3_000);
    expect(closedAtShutdown).toHaveLength(200);
    expect(entries).toHaveLength(200);
    expect(s.garbled).toEqual([]);
  });
});
