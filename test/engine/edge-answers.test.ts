import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RequestMetric } from '../../src/extend/index.js';
import { get, post } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { type RawResponse, rawRequest, toBytes } from '../reliability/raw-http.js';

// Every answer the server writes, the ones no route or hook produces included.
const { app, lines } = testApp({ host: '127.0.0.1', port: 0 });
const metrics: RequestMetric[] = [];
app.setMetricsCollector({ recordRequest: (m) => metrics.push(m) });
app.addRoutes(
  get('/users/:id', { params: z.object({ id: z.string() }) }, (c) => c.params),
  post('/users', () => 1),
  get('/boom', () => {
    throw new Error('x');
  }),
  get('/events', (c) => {
    const stream = new Readable({ read() {} });
    stream.push('data: hello\n\n');
    c.header('content-type', 'text/event-stream');
    return c.reply.send(stream);
  }),
  get('/stream', (c) => {
    let n = 0;
    const stream = new Readable({
      read() {
        n++;
        if (n < 3) this.push('chunk\n');
        else this.destroy(new Error('disk gone'));
      },
    });
    c.header('content-type', 'text/plain');
    return c.reply.send(stream);
  }),
);

let port = 0;
beforeAll(async () => {
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  port = (app.fastify.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

const SECURITY = ['content-security-policy', 'strict-transport-security', 'x-content-type-options'];

/** Checks what every answer must be, then returns its single log entry. */
async function checkAnswer(res: RawResponse, status: number, problem = true) {
  expect(res.status).toBe(status);
  for (const h of SECURITY) expect(res.headers[h], h).toBeDefined();
  const id = res.headers['x-request-id'];
  expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  if (problem) {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ status, requestId: id });
  }
  await vi.waitFor(() =>
    expect(requestEntries(lines).filter((e) => e.requestId === id)).toHaveLength(1),
  );
  return requestEntries(lines).find((e) => e.requestId === id)!;
}

async function send(method: string, url: string, headers: Record<string, string> = {}) {
  const before = metrics.length;
  const res = await rawRequest(port, toBytes({ method, url, headers }));
  return { res, counted: () => metrics.slice(before) };
}

describe('answers outside the routes', () => {
  it('answers an undecodable URL with a logged, counted 400 problem', async () => {
    const { res, counted } = await send('GET', '/users/%zz');
    const entry = await checkAnswer(res, 400);
    expect(entry).toMatchObject({ method: 'GET', path: '/users/%zz', status: 400 });
    expect(counted()).toMatchObject([{ statusCode: 400, route: 'unmatched' }]);
  });

  it('answers a path parameter over the length limit with a logged, counted 414 problem', async () => {
    const { res, counted } = await send('GET', `/users/${'9'.repeat(150)}`);
    await checkAnswer(res, 414);
    expect(counted()).toMatchObject([{ statusCode: 414 }]);
  });

  it("answers headers over Node's limit with a logged, counted 431 problem", async () => {
    const { res, counted } = await send('GET', `/users/1?q=${'a'.repeat(17_000)}`);
    const entry = await checkAnswer(res, 431);
    expect(entry).toMatchObject({ method: 'GET', path: '/users/1', status: 431 });
    expect(counted()).toMatchObject([{ statusCode: 431, route: 'unmatched' }]);
  });

  it('answers a request line Node cannot parse with a logged, counted 400 problem', async () => {
    const before = metrics.length;
    const res = await rawRequest(port, Buffer.from('GET /x HTTP/9.9 junk\r\n\r\n', 'latin1'));
    await checkAnswer(res, 400);
    expect(metrics.slice(before)).toMatchObject([{ statusCode: 400 }]);
  });

  it('answers a request timeout with a logged, counted 408 problem', async () => {
    // Node checks request timeouts every 30 s: raise the parser's timeout error on a real socket.
    const before = metrics.length;
    // Once its headers are read, while the engine waits for the rest of the body.
    const accepted = new Promise<Socket>((resolve) =>
      app.fastify.server.once('request', (req: IncomingMessage) => resolve(req.socket)),
    );
    const bytes = Buffer.from(
      'POST /users HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{',
      'latin1',
    );
    const pending = rawRequest(port, bytes);
    const socket = await accepted;
    const timeout = Object.assign(new Error('request timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
    setImmediate(() => app.fastify.server.emit('clientError', timeout, socket));
    const res = await pending;
    const entry = await checkAnswer(res, 408);
    expect(entry).toMatchObject({ method: 'POST', path: '/users', status: 408 });
    // The request the engine had begun reading is not answered, logged or counted a second time.
    if (!socket.destroyed) await once(socket, 'close');
    await new Promise((resolve) => setImmediate(resolve));
    expect(metrics.slice(before)).toMatchObject([{ statusCode: 408, route: 'unmatched' }]);
  });

  it('answers an Expect other than 100-continue with a logged, counted 417 problem', async () => {
    const { res, counted } = await send('POST', '/users', { expect: '100-foo' });
    const entry = await checkAnswer(res, 417);
    expect(entry).toMatchObject({ method: 'POST', path: '/users' });
    expect(counted()).toMatchObject([{ statusCode: 417 }]);
  });

  it('answers an OPTIONS without preflight headers with 204 and Allow on a routed path, 404 elsewhere', async () => {
    const routed = await send('OPTIONS', '/users/7');
    await checkAnswer(routed.res, 204, false);
    expect(routed.res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(routed.counted()).toMatchObject([{ statusCode: 204, route: '/users/:id' }]);
    const unknown = await send('OPTIONS', '/nowhere');
    await checkAnswer(unknown.res, 404);
    expect(unknown.counted()).toMatchObject([{ statusCode: 404, route: 'unmatched' }]);
  });

  it('counts a 405 under the route pattern of its path', async () => {
    const { res, counted } = await send('DELETE', '/users/7');
    await checkAnswer(res, 405);
    expect(counted()).toMatchObject([{ statusCode: 405, route: '/users/:id' }]);
  });

  it('answers a bad docs asset path with a logged, counted 404 problem', async () => {
    const { res, counted } = await send('GET', '/docs/assets/..%2f..%2fpackage.json');
    await checkAnswer(res, 404);
    expect(counted()).toHaveLength(1);
  });

  it('logs and counts a streamed answer that fails midway, with its error', async () => {
    const { res, counted } = await send('GET', '/stream');
    const entry = await checkAnswer(res, 200, false);
    expect(entry.error).toMatch(/^response cut off: Error: disk gone/);
    expect(counted()).toHaveLength(1);
  });

  it('logs and counts once an event stream its client leaves, as the plain info entry of its normal end', async () => {
    const before = metrics.length;
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /events HTTP/1.1\r\nHost: a\r\nX-Request-Id: leaving-client\r\n\r\n');
    await once(socket, 'data');
    socket.destroy();
    await vi.waitFor(() => expect(metrics.length).toBe(before + 1));
    const entries = requestEntries(lines).filter((e) => e.requestId === 'leaving-client');
    expect(entries).toMatchObject([{ level: 'info', path: '/events', status: 200 }]);
    expect(entries[0]).not.toHaveProperty('error');
  });

  it('logs the path of an absolute-form target, without scheme and host', async () => {
    const { res } = await send('GET', 'http://api.example.com/boom?token=s3cret');
    const entry = await checkAnswer(res, 500);
    expect(entry.path).toBe('/boom');
  });
});
