import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, eventStream, get, type ServerSentEvent } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function serve(app: App): Promise<string> {
  apps.push(app);
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
}

/** Opens a stream; `read(pattern)` resolves once the body so far matches. */
function open(url: string, headers: Record<string, string> = {}) {
  let body = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  let res!: http.IncomingMessage;
  let request: http.ClientRequest | undefined;
  const ended = new Promise<void>((resolveEnd) => {
    const req = http.get(url, { headers }, (r) => {
      res = r;
      r.setEncoding('utf8');
      r.on('data', (d: string) => {
        body += d;
        for (const w of [...waiters]) if (w.re.test(body)) w.resolve();
      });
      r.on('end', resolveEnd);
      r.on('close', resolveEnd);
    });
    req.on('error', () => resolveEnd());
    request = req;
  });
  const opened = {
    get req() {
      return request;
    },
    ended,
    get res() {
      return res;
    },
    get body() {
      return body;
    },
    read(re: RegExp) {
      if (re.test(body)) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ re, resolve }));
    },
  };
  return opened;
}

describe('server-sent events (real socket)', () => {
  it('writes each event in the event-stream format with the stream headers, then logs one entry with its duration', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/events', { responses: { 200: eventStream() } }, (c) =>
        c.sse(
          (async function* () {
            yield { data: { n: 1 }, id: '1' };
            yield { data: 'two\nlines', event: 'note', retry: 500 };
            yield { data: [3] };
          })(),
        ),
      ),
    );
    const url = await serve(app);
    const s = open(`${url}/events`);
    await s.ended;
    expect(s.res.statusCode).toBe(200);
    expect(s.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(s.res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(s.res.headers['content-encoding']).toBeUndefined();
    expect(s.res.headers['x-content-type-options']).toBe('nosniff');
    expect(s.body).toBe(
      ': stream open\n\n' +
        'id: 1\ndata: {"n":1}\n\n' +
        'event: note\nretry: 500\ndata: two\ndata: lines\n\n' +
        'data: [3]\n\n',
    );
    const entries = requestEntries(lines).filter((e) => e.path === '/events');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ method: 'GET', status: 200 });
  });

  it('is never compressed, even with compression on and a client that accepts gzip', async () => {
    const { app } = testApp({ compress: { threshold: 1 } });
    app.addRoutes(
      get('/zipped', (c) =>
        c.sse(
          (async function* () {
            yield { data: 'x'.repeat(4096) };
          })(),
        ),
      ),
    );
    const s = open(`${await serve(app)}/zipped`, { 'accept-encoding': 'gzip, br' });
    await s.ended;
    expect(s.res.headers['content-encoding']).toBeUndefined();
    expect(s.body).toContain(`data: ${'x'.repeat(4096)}\n\n`);
  });

  it('sends a comment heartbeat every heartbeatMs while the source is quiet', async () => {
    const { app } = testApp();
    let release!: () => void;
    const quiet = new Promise<void>((r) => {
      release = r;
    });
    app.addRoutes(
      get('/quiet', (c) =>
        c.sse(
          (async function* () {
            await quiet;
            yield { data: 'late' };
          })(),
          { heartbeatMs: 20 },
        ),
      ),
    );
    const s = open(`${await serve(app)}/quiet`);
    await s.read(/(: heartbeat\n\n){2}/);
    release();
    await s.ended;
    expect(s.body.endsWith('data: late\n\n')).toBe(true);
  });

  it('gives the handler the Last-Event-ID the client sends back', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/resume', (c) => {
        const last = Number(c.headers['last-event-id'] ?? 0);
        return c.sse(
          (async function* () {
            yield { id: String(last + 1), data: { after: last } };
          })(),
        );
      }),
    );
    const s = open(`${await serve(app)}/resume`, { 'last-event-id': '41' });
    await s.ended;
    expect(s.body).toContain('id: 42\ndata: {"after":41}\n\n');
  });

  it('calls the source return() when the client disconnects and still logs the request', async () => {
    const { app, lines } = testApp();
    let returned!: () => void;
    const wasReturned = new Promise<void>((r) => {
      returned = r;
    });
    const source: AsyncIterable<ServerSentEvent> = {
      [Symbol.asyncIterator]() {
        let n = 0;
        return {
          next: async () => {
            n++;
            return n === 1
              ? { value: { data: 'first' }, done: false }
              : new Promise<IteratorResult<ServerSentEvent>>(() => {});
          },
          return: async () => {
            returned();
            return { value: undefined, done: true };
          },
        };
      },
    };
    app.addRoutes(get('/forever', (c) => c.sse(source, { heartbeatMs: 30 })));
    const s = open(`${await serve(app)}/forever`);
    // Two heartbeats 30 ms apart: the stream has lived at least 60 ms.
    await s.read(/data: first\n\n(: heartbeat\n\n){2}/);
    s.req?.destroy();
    await wasReturned;
    await expect
      .poll(() => requestEntries(lines).filter((e) => e.path === '/forever'))
      .toHaveLength(1);
    // The client leaving is how an event stream ends: a plain entry, not a warning.
    const entry = requestEntries(lines).find((e) => e.path === '/forever');
    expect(entry).toMatchObject({ status: 200, level: 'info' });
    expect(entry).not.toHaveProperty('error');
  });

  it('ends the stream with one warning when the source cannot make its iterator, and close() is not held', async () => {
    const { app, lines } = testApp({ shutdownTimeoutMs: 10_000 } as never);
    const source = {
      [Symbol.asyncIterator](): AsyncIterator<ServerSentEvent> {
        throw new Error('no cursor');
      },
    };
    app.addRoutes(get('/broken', (c) => c.sse(source)));
    const s = open(`${await serve(app)}/broken`);
    await s.ended;
    expect(s.res.statusCode).toBe(200);
    expect(s.body).toBe(': stream open\n\n');
    const warned = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.level === 'warn');
    expect(warned).toMatchObject([
      {
        message: expect.stringMatching(
          /^event stream \/broken ended by an error: Error: no cursor/,
        ),
      },
    ]);
    await expect
      .poll(() => requestEntries(lines))
      .toMatchObject([{ path: '/broken', status: 200 }]);
    const started = Date.now();
    apps.splice(0);
    expect(await app.close()).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('ends open streams when the app begins to shut down, so close() does not wait for the deadline', async () => {
    const { app } = testApp({ shutdownTimeoutMs: 10_000 } as never);
    app.addRoutes(
      get('/forever', (c) =>
        c.sse(
          (async function* () {
            yield { data: 'hello' };
            await new Promise(() => {});
          })(),
        ),
      ),
    );
    const s = open(`${await serve(app)}/forever`);
    await s.read(/hello/);
    const started = Date.now();
    apps.splice(0);
    expect(await app.close()).toBe(true);
    await s.ended;
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('ends the stream and logs a warning when an event cannot be written', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/bad', (c) =>
        c.sse(
          (async function* () {
            yield { data: 'ok' };
            yield { data: 'x', event: 'a\nevent: injected' };
          })(),
        ),
      ),
    );
    const s = open(`${await serve(app)}/bad`);
    await s.ended;
    expect(s.body).not.toContain('injected');
    expect(lines.some((l) => /must not contain a line break/.test(l))).toBe(true);
  });

  it('keeps streaming past the route timeout, which bounds the handler only', async () => {
    const { app } = testApp();
    let release!: () => void;
    const later = new Promise<void>((r) => {
      release = r;
    });
    app.addRoutes(
      get('/slow-stream', { timeoutMs: 30 }, (c) =>
        c.sse(
          (async function* () {
            yield { data: 'first' };
            await later;
            yield { data: 'after the timeout' };
          })(),
          { heartbeatMs: 25 },
        ),
      ),
    );
    const s = open(`${await serve(app)}/slow-stream`);
    // Three heartbeats 25 ms apart: the 30 ms timeout has passed.
    await s.read(/(: heartbeat\n\n){3}/);
    release();
    await s.ended;
    expect(s.res.statusCode).toBe(200);
    expect(s.body).toContain('data: after the timeout\n\n');
  });

  it('answers HEAD with the stream headers without starting the source', async () => {
    const { app } = testApp();
    let started = false;
    app.addRoutes(
      get('/head', (c) =>
        c.sse(
          (async function* () {
            started = true;
            yield { data: 1 };
          })(),
        ),
      ),
    );
    const res = await app.inject({ method: 'HEAD', url: '/head' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.body).toBe('');
    expect(started).toBe(false);
  });

  it('documents the route response as text/event-stream', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/docs-events', { responses: { 200: eventStream('ticks') } }, (c) => c.sse(ticks())),
    );
    const doc = await app.openapi();
    const op = (
      doc.paths as Record<
        string,
        Record<string, { responses: Record<string, { content: object }> }>
      >
    )['/docs-events']!.get!;
    expect(Object.keys(op.responses['200']!.content)).toEqual(['text/event-stream']);
  });

  it('refuses a source that is not async iterable with a 500 problem', async () => {
    const { app } = testApp();
    app.addRoutes(get('/wrong', (c) => c.sse(z.string() as never)));
    const res = await app.inject('/wrong');
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});

async function* ticks() {
  yield { data: 1 };
}
