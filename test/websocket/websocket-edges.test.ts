import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { type App, conflict, KError, type Middleware, ws } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

const apps: App[] = [];
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const app of apps.splice(0)) await app.close();
});

async function serve(app: App): Promise<string> {
  apps.push(app);
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
}

/** A client that records its frames and how the connection ended. */
function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  clients.push(socket);
  const frames: string[] = [];
  socket.on('message', (d) => frames.push(String(d)));
  socket.on('error', () => {});
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`refused with ${res.statusCode}`)),
    );
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { socket, frames, opened, closed };
}

/** The status and body of an upgrade the server refused. */
function refused(url: string) {
  const socket = new WebSocket(url);
  clients.push(socket);
  socket.on('error', () => {});
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += String(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
    });
  });
}

const warnings = (lines: string[]) =>
  lines
    .map((l) => JSON.parse(l) as { level: string; message?: string })
    .filter((e) => e.level === 'warn')
    .map((e) => e.message);

describe('websocket connections: failures', () => {
  it('answers bad messages with error frames whose detail says what was wrong', async () => {
    const { app } = testApp();
    app.addRoutes(
      ws('/m', {
        message: z.object({ n: z.number() }),
        onMessage: (m, socket) => socket.send(`n=${m.n}`),
      }),
    );
    const client = connect(`${await serve(app)}/m`);
    await client.opened;
    client.socket.send('{');
    client.socket.send('{"n":"x"}');
    client.socket.send('{"n":1}');
    await expect.poll(() => client.frames.length).toBe(3);
    const [json, invalid, ok] = client.frames;
    expect(JSON.parse(json!)).toMatchObject({
      type: 'error',
      error: { code: 'MALFORMED_JSON', detail: 'The message is not valid JSON.' },
    });
    expect(JSON.parse(invalid!)).toMatchObject({
      type: 'error',
      error: {
        code: 'VALIDATION_FAILED',
        detail: 'The message did not pass validation.',
        errors: [{ path: 'message.n' }],
      },
    });
    expect(ok).toBe('n=1');
  });

  it('sends a 4xx KError thrown by onMessage as an error frame and keeps the connection, with or without a message schema', async () => {
    const { app } = testApp();
    const onMessage = (m: unknown, socket: { send(d: string): void }) => {
      if (String(m) === 'taken' || (m as { text?: string }).text === 'taken') {
        throw conflict('That name is taken.');
      }
      socket.send('ok');
    };
    app.addRoutes(
      ws('/plain', { onMessage }),
      ws('/typed', { message: z.object({ text: z.string() }), onMessage }),
    );
    const url = await serve(app);
    for (const [path, taken, fine] of [
      ['/plain', 'taken', 'fine'],
      ['/typed', '{"text":"taken"}', '{"text":"fine"}'],
    ] as const) {
      const client = connect(`${url}${path}`);
      await client.opened;
      client.socket.send(taken);
      client.socket.send(fine);
      await expect.poll(() => client.frames.length).toBe(2);
      expect(JSON.parse(client.frames[0]!), path).toMatchObject({
        type: 'error',
        error: { status: 409, code: 'CONFLICT', detail: 'That name is taken.' },
      });
      expect(client.frames[1], path).toBe('ok');
      expect(client.socket.readyState, path).toBe(WebSocket.OPEN);
    }
  });

  it('closes with 1011 "internal error" for a 5xx KError or an error that only carries a 4xx status, naming the route in the log', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      ws('/rooms/:room', {
        onMessage(m) {
          if (m === 'kerror-500') {
            throw new KError({ code: 'BROKEN', statusCode: 500, message: 'Broken.' });
          }
          throw Object.assign(new Error('not a KError'), { statusCode: 400 });
        },
      }),
    );
    const url = await serve(app);
    for (const message of ['kerror-500', 'plain-400']) {
      const client = connect(`${url}/rooms/blue`);
      await client.opened;
      client.socket.send(message);
      expect(await client.closed, message).toEqual({ code: 1011, reason: 'internal error' });
      expect(client.frames, message).toEqual([]);
    }
    const warned = warnings(lines);
    expect(warned).toHaveLength(2);
    for (const w of warned) expect(w).toMatch(/^websocket \/rooms\/:room: onMessage failed: /);
  });

  it('closes with 1011 when open throws, and logs a throwing close handler without losing the entry', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      ws('/open-fails', {
        open() {
          throw new Error('cannot open');
        },
        onMessage() {},
      }),
      ws('/close-fails', {
        onMessage() {},
        close() {
          throw new Error('cannot close');
        },
      }),
    );
    const url = await serve(app);
    const first = connect(`${url}/open-fails`);
    expect(await first.closed).toEqual({ code: 1011, reason: 'internal error' });
    const second = connect(`${url}/close-fails`);
    await second.opened;
    second.socket.close(1000);
    await second.closed;
    await expect
      .poll(() => requestEntries(lines).map((e) => `${e.path} ${e.status}`))
      .toEqual(['/open-fails 101', '/close-fails 101']);
    expect(warnings(lines)).toEqual([
      expect.stringMatching(/^websocket \/open-fails: open failed: Error: cannot open/),
      expect.stringMatching(/^websocket \/close-fails: close failed: Error: cannot close/),
    ]);
  });

  it('logs no warning for a route without open or close handlers', async () => {
    const { app, lines } = testApp();
    app.addRoutes(ws('/bare', { onMessage: (m, socket) => socket.send(String(m)) }));
    const client = connect(`${await serve(app)}/bare`);
    await client.opened;
    client.socket.send('hi');
    await expect.poll(() => client.frames).toEqual(['hi']);
    client.socket.close(1000);
    await client.closed;
    await expect.poll(() => requestEntries(lines)).toHaveLength(1);
    expect(warnings(lines)).toEqual([]);
  });
});

describe('websocket upgrades', () => {
  it('runs route middleware on the upgrade: an answer it returns refuses the upgrade', async () => {
    const { app } = testApp();
    const onlyTeam: Middleware = (c, next) =>
      c.headers['x-team'] === 'blue'
        ? next()
        : new KError({ code: 'FORBIDDEN', statusCode: 403, message: 'Blue team only.' });
    app.addRoutes(ws('/team', { middleware: [onlyTeam], onMessage() {} }));
    const url = await serve(app);
    expect(await refused(`${url}/team`)).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN', detail: 'Blue team only.' },
    });
    const ok = connect(`${url}/team`, { 'x-team': 'blue' });
    await ok.opened;
  });

  it('answers a plain GET with 426, a detail naming the route and the Upgrade headers', async () => {
    const { app } = testApp();
    apps.push(app);
    app.addRoutes(ws('/rooms/:room', { onMessage() {} }));
    const res = await app.inject('/rooms/blue');
    expect(res.statusCode).toBe(426);
    expect(res.headers.upgrade).toBe('websocket');
    expect(res.headers.connection).toMatch(/upgrade/i);
    expect(res.json()).toMatchObject({
      code: 'UPGRADE_REQUIRED',
      detail: '/rooms/:room is a WebSocket endpoint; send an Upgrade: websocket request.',
    });
  });

  it('closes with 1001 "server shutting down" a connection accepted once shutdown has begun', async () => {
    const { app } = testApp();
    let enter!: () => void;
    const entered = new Promise<void>((r) => {
      enter = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow: Middleware = async (_c, next) => {
      enter();
      await gate;
      return next();
    };
    app.addRoutes(ws('/late', { middleware: [slow], onMessage() {} }));
    const client = connect(`${await serve(app)}/late`);
    await entered;
    apps.splice(0);
    const closing = app.close();
    release();
    expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await closing).toBe(true);
  });

  it('closes open connections at shutdown with the reason "server shutting down"', async () => {
    const { app } = testApp();
    app.addRoutes(ws('/open', { onMessage() {} }));
    const client = connect(`${await serve(app)}/open`);
    await client.opened;
    apps.splice(0);
    const closing = app.close();
    expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await closing).toBe(true);
  });
});

describe('ws() at registration: bad arguments', () => {
  it('refuses a path without a leading slash and options without onMessage, naming them', () => {
    for (const path of ['chat', 5, undefined]) {
      expect(() => ws(path as never, { onMessage() {} }), String(path)).toThrow(
        `ws(): the path must start with '/', got ${JSON.stringify(path)}`,
      );
    }
    for (const options of [undefined, {}, { onMessage: 'x' }]) {
      expect(() => ws('/chat', options as never), JSON.stringify(options)).toThrow(
        'ws /chat: onMessage must be a function',
      );
    }
  });

  it('builds a route whose plain handler refuses to run: it answers through its upgrade', () => {
    const def = ws('/chat', { onMessage() {} });
    expect(def).toMatchObject({ method: 'GET', path: '/chat', options: { hidden: true } });
    expect(() => (def.handler as () => unknown)()).toThrow(
      'a WebSocket route answers through its upgrade, not through its handler',
    );
  });
});
