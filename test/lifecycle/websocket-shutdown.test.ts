import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, type ServiceProcess, startLogProcess } from '../support/log-process.js';
import { closeOf, type RawWebSocket, rawWebSocket } from '../support/websocket-raw.js';

const fixture = fileURLToPath(new URL('../fixtures/websocket-app.ts', import.meta.url));
const clients: RawWebSocket[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.socket.destroy();
  killAll();
});

/** `count` clients on `path` that answer nothing: no pong, no close frame. */
async function deafClients(port: number, path: string, count: number): Promise<RawWebSocket[]> {
  const opened = await Promise.all(Array.from({ length: count }, () => rawWebSocket(port, path)));
  clients.push(...opened);
  return opened;
}

const requestEntries = (s: ServiceProcess) => s.entries.filter((e) => 'method' in e);

describe('WebSockets at shutdown (child process, SIGTERM)', () => {
  it('drops clients that ignore the close frame 1 s into the shutdown, logs each as a connection closed at shutdown, and exits 0', async () => {
    const s = startLogProcess(fixture);
    const deaf = await deafClients(await s.port, '/echo', 20);
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    for (const client of deaf) {
      expect(closeOf(await client.frame(8))).toEqual({
        code: 1001,
        reason: 'server shutting down',
      });
    }
    const { code, at } = await s.exit;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(3_000);
    const entries = requestEntries(s);
    expect(entries).toHaveLength(20);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        level: 'warn',
        path: '/echo',
        status: 101,
        error: 'closed at shutdown: no close frame back within 1000 ms',
      });
    }
    expect(s.entries.filter((e) => e.level === 'error')).toEqual([]);
    expect(s.garbled).toEqual([]);
  });

  it('leaves WebSockets out of the cut of unanswered requests when the drain is shorter than the close timeout: no 503, exit 0', async () => {
    // A drain of 750 ms; the deaf client is dropped at 1 s, before the hooks' deadline (1.35 s).
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '1500' });
    await deafClients(await s.port, '/echo', 3);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
    const entries = requestEntries(s);
    expect(entries.map((e) => `${e.status} ${e.error}`)).toEqual(
      Array(3).fill('101 closed at shutdown: no close frame back within 1000 ms'),
    );
    expect(s.entries.map((e) => String(e.message ?? ''))).not.toContainEqual(
      expect.stringMatching(/^drain: cut off/),
    );
  });

  it('logs a WebSocket still open at the shutdown deadline as a connection cut off (101), not as a 503 request', async () => {
    // The hooks' deadline (450 ms) comes before the close timeout (1 s).
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '500' });
    await deafClients(await s.port, '/echo', 1);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(1);
    expect(requestEntries(s)).toMatchObject([
      {
        level: 'warn',
        status: 101,
        error: 'upgraded connection cut off: the shutdown deadline passed',
      },
    ]);
  });
});

describe('WebSockets and the send timeout (child process)', () => {
  it('drops a client that reads nothing of what the server sends, logged as a connection cut off (101)', async () => {
    const s = startLogProcess(fixture, { SEND_TIMEOUT_MS: '300' });
    const [client] = await deafClients(await s.port, '/firehose', 1);
    client!.socket.pause();
    await expect
      .poll(() => requestEntries(s), { timeout: 5_000 })
      .toMatchObject([
        {
          level: 'warn',
          path: '/firehose',
          status: 101,
          error: 'upgraded connection cut off: send timeout: the client took no byte for 300 ms',
        },
      ]);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });
});
