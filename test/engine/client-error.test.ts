import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RequestMetric } from '../../src/extend/index.js';
import { type App, get, post } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { parseResponse, rawRequest, toBytes } from '../reliability/raw-http.js';

// The exact answers written outside the routes (Node's parser, the router, Expect), with and
// without request ids, and the cases where nothing must be written.

interface Served {
  app: App;
  lines: string[];
  metrics: RequestMetric[];
  port: number;
}

function serve(options: Parameters<typeof testApp>[0]): Served {
  const { app, lines } = testApp({ host: '127.0.0.1', port: 0, ...options });
  const served: Served = { app, lines, metrics: [], port: 0 };
  app.setMetricsCollector({ recordRequest: (m) => served.metrics.push(m) });
  app.addRoutes(
    get('/users/:id', { params: z.object({ id: z.string() }) }, (c) => c.params),
    post('/users', () => 1),
    get('/events', (c) => {
      const stream = new Readable({ read() {} });
      stream.push('data: hello\n\n');
      c.header('content-type', 'text/event-stream');
      return c.reply.send(stream);
    }),
  );
  return served;
}

const ids = serve({});
const plain = serve({ requestId: false, helmet: false });

beforeAll(async () => {
  for (const s of [ids, plain]) {
    await s.app.ready();
    await s.app.fastify.listen({ port: 0, host: '127.0.0.1' });
    s.port = (s.app.fastify.server.address() as AddressInfo).port;
  }
});
afterAll(async () => {
  await ids.app.close();
  await plain.app.close();
});

const raw = (text: string) => Buffer.from(text, 'latin1');

/** The single log entry written after `before` lines, once it is there. */
async function entryAfter(s: Served, before: number) {
  await vi.waitFor(() => expect(requestEntries(s.lines.slice(before))).toHaveLength(1));
  return requestEntries(s.lines.slice(before))[0]!;
}

/** The server's side of a fresh connection, and the client's. */
async function connection(s: Served): Promise<{ server: Socket; client: Socket }> {
  const accepted = once(s.app.fastify.server, 'connection') as Promise<[Socket]>;
  const client = connect(s.port, '127.0.0.1');
  const [server] = await accepted;
  return { server, client };
}

/** Everything `client` receives until it closes. */
function received(client: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  client.on('data', (d: Buffer) => chunks.push(d));
  client.on('error', () => {});
  return once(client, 'close').then(() => Buffer.concat(chunks).toString('latin1'));
}

const problem = (status: number, title: string, code: string, detail: string) => ({
  type: 'about:blank',
  title,
  status,
  code,
  detail,
});

describe('answers outside the routes, exactly', () => {
  const cases: [string, Buffer, ReturnType<typeof problem>, { method: string; path: string }][] = [
    [
      'a request line Node cannot parse',
      raw('GET /x HTTP/9.9 junk\r\n\r\n'),
      problem(400, 'Bad Request', 'MALFORMED_REQUEST', 'The request is not valid HTTP/1.1.'),
      { method: 'GET', path: '/x' },
    ],
    [
      "headers over Node's limit",
      toBytes({ method: 'GET', url: `/users/1?q=${'a'.repeat(17_000)}` }),
      problem(
        431,
        'Request Header Fields Too Large',
        'HEADERS_TOO_LARGE',
        'The request line and headers are too large.',
      ),
      { method: 'GET', path: '/users/1' },
    ],
    [
      'an Expect other than 100-continue',
      toBytes({ method: 'POST', url: '/users', headers: { expect: '100-foo' } }),
      problem(
        417,
        'Expectation Failed',
        'EXPECTATION_FAILED',
        'Only the expectation 100-continue is supported.',
      ),
      { method: 'POST', path: '/users' },
    ],
  ];

  it.each(cases)(
    'answers %s with its problem, request id and a closed connection',
    async (_, bytes, body, logged) => {
      const before = ids.lines.length;
      const res = await rawRequest(ids.port, bytes);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(res.status).toBe(body.status);
      expect(res.headers.connection).toBe('close');
      expect(JSON.parse(res.body)).toEqual({ ...body, requestId: id });
      expect(await entryAfter(ids, before)).toMatchObject({ ...logged, requestId: id });
    },
  );

  it('answers a URL the router cannot decode, and a path parameter too long, saying which path', async () => {
    const long = `/users/${'9'.repeat(150)}`;
    for (const [url, status, detail] of [
      ['/users/%zz', 400, 'The URL /users/%zz is not valid.'],
      [long, 414, `A path parameter of ${long} is too long.`],
    ] as const) {
      const res = await rawRequest(ids.port, toBytes({ method: 'GET', url: `${url}?a=1` }));
      expect(res.status).toBe(status);
      expect(JSON.parse(res.body)).toMatchObject({ status, detail });
    }
  });

  it('counts how long a router or Expect answer took, not more', async () => {
    for (const bytes of [
      toBytes({ method: 'GET', url: '/users/%zz' }),
      toBytes({ method: 'POST', url: '/users', headers: { expect: '100-foo' } }),
    ]) {
      const before = ids.metrics.length;
      const started = performance.now();
      await rawRequest(ids.port, bytes);
      await vi.waitFor(() => expect(ids.metrics.length).toBe(before + 1));
      const { durationMs } = ids.metrics[before]!;
      expect(durationMs).toBeGreaterThanOrEqual(0);
      expect(durationMs).toBeLessThanOrEqual(performance.now() - started);
    }
  });
});

describe('answers outside the routes without request ids or security headers', () => {
  it.each([
    ['a request line Node cannot parse', raw('GET /x HTTP/9.9 junk\r\n\r\n'), 400],
    [
      'an Expect other than 100-continue',
      toBytes({ method: 'POST', url: '/users', headers: { expect: '100-foo' } }),
      417,
    ],
  ])('answers %s with no request-id header, field or log entry', async (_, bytes, status) => {
    const before = plain.lines.length;
    const res = await rawRequest(plain.port, bytes);
    expect(res.status).toBe(status);
    expect(Object.keys(res.headers).sort()).toEqual(
      ['connection', 'content-length', 'content-type'].concat(status === 417 ? ['date'] : []),
    );
    expect(JSON.parse(res.body)).not.toHaveProperty('requestId');
    expect(await entryAfter(plain, before)).not.toHaveProperty('requestId');
  });

  it('logs a URL the router cannot decode with no request id', async () => {
    const before = plain.lines.length;
    const res = await rawRequest(plain.port, toBytes({ method: 'GET', url: '/users/%zz' }));
    expect(res.status).toBe(400);
    expect(res.headers).not.toHaveProperty('x-request-id');
    expect(await entryAfter(plain, before)).not.toHaveProperty('requestId');
  });
});

describe('what the parser-error answer says of the request', () => {
  it('logs method and path as "-" when the request line cannot be read', async () => {
    const before = ids.lines.length;
    const res = await rawRequest(ids.port, raw('@@@ GET /x HTTP/1.1\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(await entryAfter(ids, before)).toMatchObject({ method: '-', path: '-', status: 400 });
  });

  it.each([
    [
      'HPE_INVALID_METHOD',
      problem(400, 'Bad Request', 'MALFORMED_REQUEST', 'The request is not valid HTTP/1.1.'),
    ],
    [
      'ERR_HTTP_REQUEST_TIMEOUT',
      problem(408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request was not received in time.'),
    ],
  ])('answers a %s with no packet, logging method and path as "-"', async (code, body) => {
    const before = ids.lines.length;
    const { server, client } = await connection(ids);
    const got = received(client);
    ids.app.fastify.server.emit('clientError', Object.assign(new Error('x'), { code }), server);
    const res = parseResponse(Buffer.from(await got, 'latin1'));
    expect(res.status).toBe(body.status);
    const id = res.headers['x-request-id'];
    expect(JSON.parse(res.body)).toEqual({ ...body, requestId: id });
    expect(await entryAfter(ids, before)).toMatchObject({
      method: '-',
      path: '-',
      status: body.status,
      requestId: id,
    });
  });

  it('writes, logs and counts nothing for a connection the client reset', async () => {
    const before = { lines: ids.lines.length, metrics: ids.metrics.length };
    const { server, client } = await connection(ids);
    const error = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    let data = '';
    client.on('data', (d: Buffer) => (data += d.toString('latin1')));
    ids.app.fastify.server.emit('clientError', error, server);
    client.end();
    await once(client, 'close');
    expect(data).toBe('');
    expect(requestEntries(ids.lines.slice(before.lines))).toEqual([]);
    expect(ids.metrics.slice(before.metrics)).toEqual([]);
  });

  it('writes no second answer on a connection whose response has begun', async () => {
    const before = ids.metrics.length;
    const accepted = new Promise<Socket>((resolve) =>
      ids.app.fastify.server.once('request', (req: IncomingMessage) => resolve(req.socket)),
    );
    const client = connect(ids.port, '127.0.0.1');
    const got = received(client);
    client.write('GET /events HTTP/1.1\r\nHost: a\r\n\r\n');
    const server = await accepted;
    await once(client, 'data');
    const timeout = Object.assign(new Error('request timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
    ids.app.fastify.server.emit('clientError', timeout, server);
    const text = await got;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    // Only the one status line: a second answer would start another `HTTP/1.1 408`.
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(text).not.toContain('problem+json');
    await vi.waitFor(() => expect(ids.metrics.length).toBe(before + 1));
    expect(ids.metrics.slice(before)).toMatchObject([{ statusCode: 200, route: '/events' }]);
  });
});
