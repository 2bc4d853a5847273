import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import {
  type App,
  type Controller,
  conflict,
  get,
  type Middleware,
  unauthorized,
  ws,
} from '../../src/index.js';
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
  return `127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
}

/** A connected client whose received frames are queued for `next()`. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  clients.push(socket);
  const frames: string[] = [];
  const waiting: ((f: string) => void)[] = [];
  socket.on('message', (d) => {
    const w = waiting.shift();
    if (w) w(String(d));
    else frames.push(String(d));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    next: () =>
      frames.length
        ? Promise.resolve(frames.shift()!)
        : new Promise<string>((r) => waiting.push(r)),
  };
}

/** The HTTP answer to an upgrade the server refused. */
function refused(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  clients.push(socket);
  socket.on('error', () => {});
  return new Promise<{ status: number; type: string; body: Record<string, unknown> }>(
    (resolve, reject) => {
      socket.once('open', () => reject(new Error('the upgrade was accepted')));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += String(d);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            body: JSON.parse(body),
          }),
        );
      });
    },
  );
}

const Chat = z.object({ text: z.string().min(1) });

function chatApp() {
  const { app, lines } = testApp();
  const events: string[] = [];
  app.addRoutes(
    ws('/rooms/:room', {
      message: Chat,
      open(socket, c) {
        events.push(`open ${c.params.room}`);
        socket.send(JSON.stringify({ joined: c.params.room }));
      },
      onMessage(message, socket, c) {
        if (message.text === 'boom') throw new Error('handler failed');
        if (message.text === 'taken') throw conflict('That name is taken.');
        socket.send(JSON.stringify({ room: c.params.room, echo: message.text.toUpperCase() }));
      },
      close(_socket, code) {
        events.push(`close ${code}`);
      },
    }),
  );
  return { app, lines, events };
}

describe('websockets (real socket, ws client)', () => {
  it('opens with the path parameters, validates each message and answers through the socket', async () => {
    const { app } = chatApp();
    const host = await serve(app);
    const client = await connect(`ws://${host}/rooms/blue`);
    expect(JSON.parse(await client.next())).toEqual({ joined: 'blue' });
    client.socket.send(JSON.stringify({ text: 'hi' }));
    expect(JSON.parse(await client.next())).toEqual({ room: 'blue', echo: 'HI' });
  });

  it('answers an invalid message with an error frame and keeps the connection open', async () => {
    const { app } = chatApp();
    const client = await connect(`ws://${await serve(app)}/rooms/blue`);
    await client.next();
    client.socket.send('not json');
    expect(JSON.parse(await client.next())).toMatchObject({
      type: 'error',
      error: { status: 400, code: 'MALFORMED_JSON' },
    });
    client.socket.send(JSON.stringify({ text: '' }));
    expect(JSON.parse(await client.next())).toMatchObject({
      type: 'error',
      error: { status: 422, code: 'VALIDATION_FAILED', errors: [{ path: 'message.text' }] },
    });
    client.socket.send(JSON.stringify({ text: 'taken' }));
    expect(JSON.parse(await client.next())).toMatchObject({
      type: 'error',
      error: { status: 409, code: 'CONFLICT', detail: 'That name is taken.' },
    });
    client.socket.send(JSON.stringify({ text: 'still here' }));
    expect(JSON.parse(await client.next())).toMatchObject({ echo: 'STILL HERE' });
  });

  it('closes with 1011 and logs the failure when a handler throws, and the server keeps serving', async () => {
    const { app, lines } = chatApp();
    const host = await serve(app);
    const client = await connect(`ws://${host}/rooms/red`);
    await client.next();
    client.socket.send(JSON.stringify({ text: 'boom' }));
    expect((await client.closed).code).toBe(1011);
    expect(lines.some((l) => /onMessage failed: Error: handler failed/.test(l))).toBe(true);
    const again = await connect(`ws://${host}/rooms/red`);
    expect(JSON.parse(await again.next())).toEqual({ joined: 'red' });
  });

  it('closes the connection with 1009 when a message is over 1 MiB', async () => {
    const { app } = chatApp();
    const client = await connect(`ws://${await serve(app)}/rooms/blue`);
    await client.next();
    client.socket.send(JSON.stringify({ text: 'x'.repeat(1024 * 1024) }));
    expect((await client.closed).code).toBe(1009);
  });

  it('writes one request-log entry per connection, when it closes', async () => {
    const { app, lines, events } = chatApp();
    const client = await connect(`ws://${await serve(app)}/rooms/green`);
    await client.next();
    expect(requestEntries(lines)).toEqual([]);
    client.socket.close(1000);
    await client.closed;
    await expect.poll(() => requestEntries(lines)).toHaveLength(1);
    expect(requestEntries(lines)[0]).toMatchObject({
      method: 'GET',
      path: '/rooms/green',
      status: 101,
    });
    expect(events).toEqual(['open green', 'close 1000']);
  });

  it('runs group middleware on the upgrade: a 401 refuses it with a problem+json', async () => {
    const { app, lines } = testApp();
    const auth: Middleware = (c, next) => {
      if (c.headers.authorization !== 'Bearer ok') throw unauthorized('A token is required.');
      return next();
    };
    class Feed implements Controller {
      routes() {
        return [ws('/feed', { onMessage: (m, socket) => socket.send(`got ${String(m)}`) })];
      }
    }
    app.group('/private', auth).registerController(new Feed());
    const host = await serve(app);
    const res = await refused(`ws://${host}/private/feed`);
    expect(res).toMatchObject({
      status: 401,
      body: { status: 401, code: 'UNAUTHORIZED', detail: 'A token is required.' },
    });
    expect(res.type).toContain('application/problem+json');
    expect(requestEntries(lines)).toEqual([
      expect.objectContaining({ path: '/private/feed', status: 401 }),
    ]);

    const ok = await connect(`ws://${host}/private/feed`, { authorization: 'Bearer ok' });
    ok.socket.send('plain');
    expect(await ok.next()).toBe('got plain');
  });

  it('answers an upgrade to a path without a WebSocket route with a 404 problem', async () => {
    const { app } = chatApp();
    const res = await refused(`ws://${await serve(app)}/nowhere`);
    expect(res).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('closes the connection of a refused upgrade, so shutdown does not wait for it', async () => {
    const { app } = chatApp();
    const host = await serve(app);
    expect((await refused(`ws://${host}/nowhere`)).status).toBe(404);
    apps.splice(0);
    const started = Date.now();
    expect(await app.close()).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 426 problem+json to a plain GET on a WebSocket route', async () => {
    const { app } = chatApp();
    const host = await serve(app);
    const res = await fetch(`http://${host}/rooms/blue`);
    expect(res.status).toBe(426);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ code: 'UPGRADE_REQUIRED' });
  });

  it('closes open connections with 1001 when the app shuts down, without waiting for the deadline', async () => {
    const { app, events } = chatApp();
    const client = await connect(`ws://${await serve(app)}/rooms/blue`);
    await client.next();
    apps.splice(0);
    const started = Date.now();
    expect(await app.close()).toBe(true);
    expect((await client.closed).code).toBe(1001);
    expect(Date.now() - started).toBeLessThan(3_000);
    // close() waited for the closing handshake and the route's close handler.
    expect(events).toContain('close 1001');
  });

  it('leaves WebSocket routes out of the OpenAPI document', async () => {
    const { app } = chatApp();
    app.addRoutes(get('/plain', () => 'x'));
    const doc = await app.openapi();
    expect(Object.keys(doc.paths ?? {})).toContain('/plain');
    expect(Object.keys(doc.paths ?? {})).not.toContain('/rooms/{room}');
  });
});

describe('ws() at registration', () => {
  it('refuses a message schema that is not a Standard Schema value, and takes a function carrying ~standard, as ArkType types are', () => {
    const onMessage = () => {};
    expect(() => ws('/a', { message: { type: 'object' } as never, onMessage })).toThrow(
      'ws /a: the message schema is not a Standard Schema value',
    );
    const callable = Object.assign(() => true, { '~standard': z.object({})['~standard'] });
    expect(() => ws('/b', { message: callable as never, onMessage })).not.toThrow();
  });
});
