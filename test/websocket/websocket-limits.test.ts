import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WebSocketConnection } from '../../src/extend/index.js';
import { type App, ws } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { closeOf, type RawWebSocket, rawWebSocket, textFrames } from '../support/websocket-raw.js';

const apps: App[] = [];
const clients: { terminate(): void }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const app of apps.splice(0)) await app.close();
});

async function serve(app: App): Promise<number> {
  apps.push(app);
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return (app.fastify.server.address() as AddressInfo).port;
}

async function raw(port: number, path: string): Promise<RawWebSocket> {
  const client = await rawWebSocket(port, path);
  clients.push({ terminate: () => client.socket.destroy() });
  return client;
}

/** A gate handlers wait on until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
}

/** The server's side of a connection: the ws socket behind the handler's. */
const serverSide = (socket: WebSocketConnection) => socket as unknown as WebSocket;

/** The parsed request entry of `path`, once it is logged. */
async function entryOf(lines: string[], path: string) {
  await expect.poll(() => requestEntries(lines).filter((e) => e.path === path)).toHaveLength(1);
  return requestEntries(lines).find((e) => e.path === path)!;
}

describe('websocket back-pressure (maxQueued)', () => {
  it('stops reading while maxQueued messages wait, then handles every message in order as the handler catches up', async () => {
    const { app } = testApp();
    const held = gate();
    const COUNT = 100;
    let server: WebSocket | undefined;
    let read = 0;
    let started = 0;
    let mostWaiting = 0;
    const handled: number[] = [];
    app.addRoutes(
      ws('/slow', {
        maxQueued: 4,
        open(socket) {
          server = serverSide(socket);
          server.on('message', () => {
            read++;
            mostWaiting = Math.max(mostWaiting, read - started);
          });
        },
        async onMessage(message) {
          started++;
          await held.opened;
          handled.push((message as Buffer).readUInt32BE(0));
        },
      }),
    );
    const client = new WebSocket(`ws://127.0.0.1:${await serve(app)}/slow`);
    clients.push(client);
    await new Promise((resolve) => client.once('open', resolve));
    // 100 messages of 64 KiB: far more than the socket buffers between the two hold.
    for (let i = 0; i < COUNT; i++) {
      const message = Buffer.alloc(64 * 1024);
      message.writeUInt32BE(i, 0);
      client.send(message, { binary: true });
    }
    await expect.poll(() => server?.isPaused, { timeout: 5_000 }).toBe(true);
    expect(read).toBeLessThanOrEqual(1 + 4);
    held.open();
    await expect.poll(() => handled.length, { timeout: 10_000 }).toBe(COUNT);
    expect(handled).toEqual(Array.from({ length: COUNT }, (_, i) => i));
    // In flight and waiting, never more than the one being handled and maxQueued.
    expect(mostWaiting).toBeLessThanOrEqual(1 + 4);
    expect(client.readyState).toBe(WebSocket.OPEN);
  });

  it('closes with 1008 when a burst read before the pause goes past maxQueued, and logs why', async () => {
    const { app, lines } = testApp();
    const held = gate();
    let started = 0;
    app.addRoutes(
      ws('/burst', {
        maxQueued: 4,
        async onMessage() {
          started++;
          await held.opened;
        },
      }),
    );
    const client = await raw(await serve(app), '/burst');
    // Twenty messages in one write: the server reads them in one go.
    client.socket.write(textFrames(...Array.from({ length: 20 }, (_, i) => `m${i}`)));
    const close = closeOf(await client.frame(8));
    expect(close).toEqual({ code: 1008, reason: 'too many messages waiting' });
    client.socket.end();
    held.open();
    const entry = await entryOf(lines, '/burst');
    expect(entry).toMatchObject({
      level: 'warn',
      status: 101,
      error: 'closed with 1008: more than 4 messages waited for the handler',
    });
    // The message in flight finished; the others were dropped with the connection.
    expect(started).toBe(1);
  });

  it('drops the messages still waiting when the client leaves, so none is handled for nobody', async () => {
    const { app, lines } = testApp();
    const held = gate();
    let started = 0;
    let serverClosed: Promise<unknown> | undefined;
    app.addRoutes(
      ws('/leaving', {
        maxQueued: 16,
        open(socket) {
          serverClosed = new Promise((resolve) => serverSide(socket).once('close', resolve));
        },
        async onMessage() {
          started++;
          await held.opened;
        },
      }),
    );
    const client = await raw(await serve(app), '/leaving');
    client.socket.write(textFrames(...Array.from({ length: 10 }, (_, i) => `m${i}`)));
    await expect.poll(() => started).toBe(1);
    client.socket.destroy();
    await serverClosed;
    held.open();
    const entry = await entryOf(lines, '/leaving');
    expect(entry).toMatchObject({ level: 'info', status: 101 });
    expect(started).toBe(1);
  });
});

describe('websocket heartbeat (pingIntervalMs)', () => {
  it('pings every pingIntervalMs and keeps a client that answers', async () => {
    const { app } = testApp();
    app.addRoutes(ws('/live', { pingIntervalMs: 20, onMessage() {} }));
    const client = new WebSocket(`ws://127.0.0.1:${await serve(app)}/live`);
    clients.push(client);
    let pings = 0;
    await new Promise<void>((resolve) =>
      client.on('ping', () => {
        if (++pings === 4) resolve();
      }),
    );
    expect(client.readyState).toBe(WebSocket.OPEN);
  });

  it('drops a peer that answers no ping, and logs why', async () => {
    const { app, lines } = testApp();
    let closedWith: number | undefined;
    app.addRoutes(
      ws('/silent', {
        pingIntervalMs: 20,
        onMessage() {},
        close: (_socket, code) => {
          closedWith = code;
        },
      }),
    );
    const client = await raw(await serve(app), '/silent');
    await client.frame(9);
    await client.closed;
    const entry = await entryOf(lines, '/silent');
    expect(entry).toMatchObject({
      level: 'warn',
      status: 101,
      error: 'dropped: no pong to a ping within 20 ms',
    });
    expect(closedWith).toBe(1006);
  });
});

describe('websocket at shutdown', () => {
  it('drops a client that ignores the close frame after 1 s, logged as a connection closed at shutdown', async () => {
    const { app, lines } = testApp();
    app.addRoutes(ws('/deaf', { onMessage() {} }));
    const client = await raw(await serve(app), '/deaf');
    apps.splice(0);
    const started = Date.now();
    const closing = app.close();
    expect(closeOf(await client.frame(8))).toEqual({ code: 1001, reason: 'server shutting down' });
    await client.closed;
    expect(await closing).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await entryOf(lines, '/deaf')).toMatchObject({
      level: 'warn',
      status: 101,
      error: 'closed at shutdown: no close frame back within 1000 ms',
    });
  });
});

describe('ws() limits at registration', () => {
  it('refuses a maxQueued that is not an integer >= 1 and a pingIntervalMs that is not a timer delay or false, naming them', () => {
    for (const maxQueued of [0, -1, 1.5, Number.NaN, '8']) {
      expect(() => ws('/q', { maxQueued: maxQueued as number, onMessage() {} })).toThrow(
        new TypeError(`ws /q: maxQueued must be an integer >= 1, got ${String(maxQueued)}`),
      );
    }
    for (const pingIntervalMs of [0, -5, Number.NaN, 2 ** 31, true, '10']) {
      expect(() => ws('/p', { pingIntervalMs: pingIntervalMs as number, onMessage() {} })).toThrow(
        new TypeError(
          `ws /p: pingIntervalMs must be a number of ms from 1 to 2147483647, or false, got ${String(pingIntervalMs)}`,
        ),
      );
    }
    expect(() => ws('/ok', { maxQueued: 1, pingIntervalMs: false, onMessage() {} })).not.toThrow();
  });
});
