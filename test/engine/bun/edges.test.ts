import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttributeValue, Span, SpanStartOptions } from '../../../src/extend/index.js';
import { eventStream, get, post } from '../../../src/index.js';
import { answers, ENGINES, expectSame, expectSameLogs, seen, type Twin, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

interface Recorded {
  name: string;
  options: SpanStartOptions | undefined;
  attrs: Record<string, AttributeValue>;
  errors: number;
  ended: number;
}

function recordingTracer(spans: Recorded[]) {
  return {
    start(name: string, options?: SpanStartOptions): Span {
      const rec: Recorded = {
        name,
        options,
        attrs: { ...options?.attributes },
        errors: 0,
        ended: 0,
      };
      spans.push(rec);
      return {
        traceId: 'trace-1',
        setAttribute: (k, v) => {
          rec.attrs[k] = v;
        },
        recordError: () => {
          rec.errors++;
        },
        end: () => {
          rec.ended++;
        },
      };
    },
  };
}

const shapes = () =>
  twin({}, (app) =>
    app.addRoutes(
      get('/node-stream', () => Readable.from([Buffer.from('ab'), Buffer.from('cd')])),
      get('/web-stream', (c) => {
        c.header('content-type', 'text/plain; charset=utf-8');
        return new Response('web body').body as never;
      }),
      get('/array-buffer', () => new Uint8Array([7, 8]).buffer as never),
      get('/typed', (c) => {
        c.header('content-type', 'image/png');
        return new Uint8Array([137, 80]);
      }),
      get('/cookies', (c) => {
        c.header('set-cookie', 'a=1');
        c.header('set-cookie', ['b=2', 'c=3']);
        return 1;
      }),
      get('/events', { responses: { 200: eventStream() } }, (c) =>
        c.sse(
          (async function* () {
            yield { data: { n: 1 }, id: '1' };
            yield { data: 'two', event: 'note' };
          })(),
        ),
      ),
      get('/text', (c) => {
        c.header('content-type', 'text/plain; charset=utf-8');
        return 'héllo';
      }),
      get('/reset', (c) => c.status(205 as never, { dropped: true } as never)),
      get('/not-modified', (c) => c.status(304 as never, 'dropped' as never)),
      post('/created', { responses: { 201: eventStream() } }, () => 'x' as never),
    ),
  );

describe('answers the Bun engine streams or shapes', () => {
  // Each test its own apps: a mutant in the mount is then run against every test.
  let t: Twin;
  beforeEach(() => {
    t = shapes();
  });
  afterEach(async () => {
    // An event stream's line is written once the stream has closed, a tick after its answer.
    for (let i = 0; i < 50 && t.bun.lines.length < t.fastify.lines.length; i++) {
      await new Promise((r) => setImmediate(r));
    }
    expectSameLogs(t);
  });

  it('a web stream, bytes of a given type', async () => {
    expect((await expectSame(t, '/web-stream')).body).toBe('web body');
    expect((await expectSame(t, '/typed')).headers['content-type']).toBe('image/png');
  });

  it('an ArrayBuffer', async () => {
    await expectSame(t, '/array-buffer');
  });

  it('a Node stream with no type set', async () => {
    expect((await expectSame(t, '/node-stream')).body).toBe('abcd');
  });

  // A difference the Bun engine cannot avoid: a web Response cannot carry a body with a 205, so
  // it goes out without one (the Fastify engine sends it: Fastify drops it for 204 and 304 only).
  it('a 205 goes out with no body on the Bun engine, with it on the Fastify engine', async () => {
    const { bun, fastify } = await answers(t, '/reset');
    expect([bun.statusCode, bun.body]).toEqual([205, '']);
    expect([fastify.statusCode, fastify.json()]).toEqual([205, { dropped: true }]);
  });

  it('a 304 goes out with no body; HEAD of bytes with none', async () => {
    expect((await expectSame(t, '/not-modified')).body).toBe('');
    expect((await expectSame(t, { method: 'HEAD', url: '/typed' })).body).toBe('');
  });

  it('a repeated Set-Cookie stays several headers', async () => {
    const res = await expectSame(t, '/cookies');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it('an event stream: its headers, its events, one log line once it ends', async () => {
    const res = await expectSame(t, '/events');
    expect(res.body).toContain('event: note');
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('HEAD of a text answer gives its length in bytes and no body', async () => {
    const res = await answers(t, { method: 'HEAD', url: '/text' });
    expect(res.bun.headers['content-length']).toBe(String(Buffer.byteLength('héllo')));
    expect(res.bun.headers['content-length']).toBe(res.fastify.headers['content-length']);
    expect(seen(res.bun)).toEqual(seen(res.fastify));
    expect(res.bun.body).toBe('');
  });
});

describe('the tracer on the Bun engine', () => {
  it('one server span per request, named after its route, the same as on the Fastify engine', async () => {
    const spans: Record<string, Recorded[]> = { fastify: [], bun: [] };
    const t = twin({}, (app) =>
      app.addRoutes(
        get('/users/:id', (c) => {
          c.span.setAttribute('user.id', c.params.id);
          return { ok: true };
        }),
        get('/boom', () => {
          throw new Error('kaboom');
        }),
      ),
    );
    for (const engine of ENGINES) t[engine].app.setTracer(recordingTracer(spans[engine]!));
    // light-my-request sends these two; the Bun engine's inject does not.
    const headers = { host: 'localhost:80', 'user-agent': 'lightMyRequest' };
    await expectSame(t, { url: '/users/7', headers: { ...headers, traceparent: '00-abc-def-01' } });
    await expectSame(t, { url: '/boom', headers });
    await expectSame(t, { url: '/nowhere', headers });
    const shape = (list: Recorded[]) =>
      list.map(({ options, ...rest }) => ({
        ...rest,
        kind: options?.kind,
        tp: options?.headers?.traceparent,
      }));
    expect(shape(spans.bun!)).toEqual(shape(spans.fastify!));
    expect(spans.bun!.map((s) => s.name)).toEqual(['GET /users/:id', 'GET /boom', 'GET']);
    expectSameLogs(t);
    expect(t.bun.lines.every((l) => l.includes('"traceId":"trace-1"'))).toBe(true);
  });
});

it('a CORS preflight makes no span, as on the Fastify engine', async () => {
  const spans: Record<string, Recorded[]> = { fastify: [], bun: [] };
  const t = twin({}, (app) => app.addRoutes(get('/users/:id', () => 1)));
  for (const engine of ENGINES) t[engine].app.setTracer(recordingTracer(spans[engine]!));
  await expectSame(t, {
    method: 'OPTIONS',
    url: '/users/1',
    headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
  });
  expect(spans.bun!.map((s) => s.name)).toEqual(spans.fastify!.map((s) => s.name));
});
