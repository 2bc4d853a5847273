import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BunServeOptions, BunServer } from '../../../src/engine/bun/bun-types.js';
import { get, post } from '../../../src/index.js';
import { testApp } from '../../app/helpers.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

// A stand-in for the `Bun` global: app.listen() hands it the dispatcher, which is then given web
// Requests with a server that names the peer, as Bun.serve does.
function fakeBun(peer: string) {
  let options: BunServeOptions | undefined;
  let served!: () => void;
  const serving = new Promise<void>((resolve) => {
    served = resolve;
  });
  // stop(false) resolves once every request is answered, stop(true) at once: as Bun's.
  let pending = 0;
  let idle: (() => void) | undefined;
  const server: BunServer = {
    port: 4321,
    hostname: '127.0.0.1',
    pendingRequests: 0,
    stop: (force) => {
      if (force || pending === 0) {
        idle?.();
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        idle = resolve;
      });
    },
    requestIP: () => ({ address: peer, port: 50_000 }),
  };
  (globalThis as { Bun?: unknown }).Bun = {
    serve(given: BunServeOptions) {
      options = given;
      served();
      return server;
    },
  };
  const fetch = async (path: string, init: RequestInit = {}, shape?: (r: Request) => void) => {
    if (!options) throw new Error('not listening');
    pending++;
    const request = new Request(`http://127.0.0.1:4321${path}`, init);
    shape?.(request);
    try {
      return await options.fetch(request, server);
    } finally {
      if (--pending === 0) idle?.();
    }
  };
  return { fetch, server, options: () => options!, serving };
}

afterEach(() => {
  delete (globalThis as { Bun?: unknown }).Bun;
});

describe('the Bun engine behind Bun.serve (a stand-in for the Bun global)', () => {
  it('serves the routes; c.request.ip is the peer, or the client behind a trusted proxy', async () => {
    const bun = fakeBun('10.0.0.2');
    const { app, lines } = testApp({
      engine: 'bun',
      host: '127.0.0.1',
      port: 0,
      trustProxy: '10.0.0.0/8',
      bodyLimit: 1000,
    });
    app.addRoutes(get('/who', (c) => ({ ip: c.request.ip })));
    const listening = app.listen();
    await bun.serving;
    try {
      expect(app.engine.name === 'bun' && app.engine.server).toBeTruthy();
      expect(bun.options().maxRequestBodySize).toBe(1_048_576);
      const direct = await bun.fetch('/who');
      expect(await direct.json()).toEqual({ ip: '10.0.0.2' });
      const behind = await bun.fetch('/who', { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(await behind.json()).toEqual({ ip: '203.0.113.7' });
      expect(bun.options().error(new Error('x')).status).toBe(500);
    } finally {
      await app.close();
      await listening;
    }
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.filter((e) => e.path === '/who').map((e) => e.ip)).toEqual([
      '10.0.0.2',
      '203.0.113.7',
    ]);
  });

  it('without trustProxy the peer is the address, X-Forwarded-For or not', async () => {
    const bun = fakeBun('198.51.100.9');
    const { app } = testApp({ engine: 'bun', host: '127.0.0.1', port: 0 });
    app.addRoutes(get('/who', (c) => ({ ip: c.request.ip })));
    const listening = app.listen();
    await bun.serving;
    try {
      const res = await bun.fetch('/who', { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(await res.json()).toEqual({ ip: '198.51.100.9' });
    } finally {
      await app.close();
      await listening;
    }
  });

  it('c.signal aborts when the client goes away', async () => {
    const bun = fakeBun('127.0.0.1');
    const { app } = testApp({ engine: 'bun', host: '127.0.0.1', port: 0 });
    let aborted: unknown;
    const left = new AbortController();
    app.addRoutes(
      get('/wait', async (c) => {
        const signal = c.signal;
        const ended = new Promise((r) => signal.addEventListener('abort', r, { once: true }));
        left.abort();
        await ended;
        aborted = signal.reason;
        return 'done';
      }),
      get('/gone', (c) => ({ aborted: c.signal.aborted })),
    );
    const listening = app.listen();
    await bun.serving;
    try {
      const res = await bun.fetch('/wait', { signal: left.signal });
      expect(await res.text()).toBe('"done"');
      expect(String(aborted)).toMatch(/client closed the connection/);
      const gone = new AbortController();
      gone.abort();
      const after = await bun.fetch('/gone', { signal: gone.signal });
      expect(await after.json()).toEqual({ aborted: true });
    } finally {
      await app.close();
      await listening;
    }
  });

  it('the drain: an answer carries Connection: close; one still unanswered at the end is cut, 503', async () => {
    const bun = fakeBun('127.0.0.1');
    const { app, lines } = testApp({
      engine: 'bun',
      host: '127.0.0.1',
      port: 0,
      shutdownTimeoutMs: 300,
    });
    let slowSignal: AbortSignal | undefined;
    let stuckSignal: AbortSignal | undefined;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const both = new Promise<void>((resolve) => {
      let n = 0;
      started = () => {
        if (++n === 2) resolve();
      };
    });
    app.addRoutes(
      get('/slow', async (c) => {
        slowSignal = c.signal;
        started();
        await gate;
        return 'slow';
      }),
      // Never answers: cut at the end of the drain.
      get('/stuck', (c) => {
        stuckSignal = c.signal;
        started();
        return new Promise(() => {});
      }),
    );
    const listening = app.listen();
    await bun.serving;
    const slow = bun.fetch('/slow');
    const stuck = bun.fetch('/stuck');
    await both;
    const closing = app.close();
    release();
    const answered = await slow;
    expect(answered.headers.get('connection')).toBe('close');
    const cut = await stuck;
    expect(cut.status).toBe(503);
    expect(cut.headers.get('connection')).toBe('close');
    await closing;
    await listening;
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.filter((e) => e.path === '/stuck').map((e) => e.status)).toEqual([503]);
    // The request answered before the drain no longer follows the deadline.
    expect(slowSignal?.aborted).toBe(false);
    // The one cut off is told, as a closed socket tells it on the Fastify engine.
    expect(stuckSignal?.aborted).toBe(true);
    expect(String(stuckSignal?.reason)).toMatch(/request cut off before an answer/);
  });

  it('a chunked body (no Content-Length): read chunk by chunk, a 413 once over the limit', async () => {
    const bun = fakeBun('127.0.0.1');
    const { app } = testApp({ engine: 'bun', host: '127.0.0.1', port: 0, bodyLimit: 16 });
    app.addRoutes(post('/echo', (c) => ({ body: c.body })));
    const listening = app.listen();
    await bun.serving;
    const chunked = (...parts: string[]) =>
      bun.fetch('/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    try {
      const ok = await chunked('{"a":', '[1,2]', '}');
      expect(await ok.json()).toEqual({ body: { a: [1, 2] } });
      const one = await chunked('{"b":1}');
      expect(await one.json()).toEqual({ body: { b: 1 } });
      const over = await chunked('{"a":"', 'x'.repeat(10), 'x'.repeat(10), '"}');
      expect(over.status).toBe(413);
      expect(await over.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      const exact = await chunked('{"s":"', 'x'.repeat(8), '"}');
      expect(exact.status).toBe(200);
    } finally {
      await app.close();
      await listening;
    }
  });

  it("a body with no type is a 415; Bun's headers.toJSON() is read; no Host, no hostname", async () => {
    const bun = fakeBun('127.0.0.1');
    const { app } = testApp({ engine: 'bun', host: '127.0.0.1', port: 0 });
    app.addRoutes(
      post('/echo', (c) => ({ body: c.body })),
      get('/h', (c) => ({
        a: c.request.headers['x-a'] ?? null,
        hostname: c.request.hostname,
        port: c.request.port,
      })),
    );
    const listening = app.listen();
    await bun.serving;
    try {
      // A client on the wire sends the length (a web Request made here has none of itself).
      const untyped = await bun.fetch('/echo', {
        method: 'POST',
        headers: { 'content-length': '2' },
        body: new Uint8Array([123, 125]),
      });
      expect(untyped.status).toBe(415);
      const res = await bun.fetch('/h', { headers: { 'x-a': 'from the headers' } }, (request) => {
        // Bun's Headers have a toJSON() (set-cookie a list): the engine takes it as it is.
        Object.assign(request.headers, { toJSON: () => ({ 'x-a': 'from toJSON' }) });
      });
      expect(await res.json()).toEqual({ a: 'from toJSON', hostname: '', port: null });
    } finally {
      await app.close();
      await listening;
    }
  });
});
