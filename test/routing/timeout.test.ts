import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { get, isKError } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

/** Resolves when `signal` aborts, with its reason. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

describe('route timeouts', () => {
  it('aborts c.signal and answers 504 TIMEOUT problem+json when timeoutMs passes', async () => {
    const { app } = testApp();
    let reason: unknown;
    app.addRoutes(
      get('/slow', { timeoutMs: 30 }, async (c) => {
        reason = await aborted(c.signal);
        throw reason;
      }),
    );

    const res = await app.inject('/slow');
    expect(res.statusCode).toBe(504);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 504, code: 'TIMEOUT' });
    expect(isKError(reason) && reason.code).toBe('TIMEOUT');
  });

  it('lets a handler that ignores the signal finish without answering twice', async () => {
    const { app, lines } = testApp();
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    app.addRoutes(
      get('/stubborn', { timeoutMs: 20 }, async (c) => {
        await aborted(c.signal);
        await new Promise((resolve) => setImmediate(resolve));
        finished();
        return { late: true };
      }),
    );

    const res = await app.inject('/stubborn');
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.statusCode).toBe(504);
    expect(res.body).not.toContain('late');
    expect(requestEntries(lines).map((e) => e.status)).toEqual([504]);
    expect(lines.filter((l) => !l.includes('"method"'))).toEqual([]);
  });

  it('logs nothing but the 504 when a handler rejects after its timeout', async () => {
    const { app, lines } = testApp();
    let rejected!: () => void;
    const done = new Promise<void>((resolve) => {
      rejected = resolve;
    });
    app.addRoutes(
      get('/late-failure', { timeoutMs: 20 }, async (c) => {
        await aborted(c.signal);
        queueMicrotask(rejected);
        throw new Error('the work failed once the client had its 504');
      }),
    );

    const res = await app.inject('/late-failure');
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.statusCode).toBe(504);
    expect(requestEntries(lines).map((e) => e.status)).toEqual([504]);
    // Not "failed after its response was sent": the timeout is the answer, not a late failure.
    expect(lines.filter((l) => !l.includes('"method"'))).toEqual([]);
  });

  it('answers a synchronous handler on a route with a timeout, and its errors as usual', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/sync', { timeoutMs: 20 }, () => ({ sync: true })),
      get('/text', { timeoutMs: 20 }, (c) => c.status(201, 'made')),
      get('/throws', { timeoutMs: 20 }, () => {
        throw new Error('sync failure');
      }),
    );

    const sync = await app.inject('/sync');
    expect(sync.statusCode).toBe(200);
    expect(sync.json()).toEqual({ sync: true });
    const text = await app.inject('/text');
    expect([text.statusCode, text.json()]).toEqual([201, 'made']);
    const thrown = await app.inject('/throws');
    expect(thrown.statusCode).toBe(500);
    // Past the timeout: a timer left behind would now abort or answer a sent request.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(requestEntries(lines).map((e) => e.status)).toEqual([200, 201, 500]);
    expect(lines.filter((l) => !l.includes('"method"'))).toEqual([]);
  });

  it('times out a handler that returns a thenable other than a Promise (a lazy query)', async () => {
    const { app } = testApp();
    let settled: Promise<unknown> | undefined;
    const query: PromiseLike<unknown> = {
      // biome-ignore lint/suspicious/noThenProperty: a lazy query, awaited like a promise
      then(onfulfilled, onrejected) {
        settled = new Promise((resolve) => setTimeout(() => resolve([{ late: true }]), 80));
        return settled.then(onfulfilled, onrejected);
      },
    };
    app.addRoutes(get('/query', { timeoutMs: 20 }, () => query));

    const res = await app.inject('/query');
    await settled;
    expect(res.statusCode).toBe(504);
    expect(res.json()).toMatchObject({ code: 'TIMEOUT' });
  });

  it('answers as usual when the handler is faster than its timeout', async () => {
    const { app } = testApp();
    let signal: AbortSignal | undefined;
    app.addRoutes(
      get('/fast', { timeoutMs: 60 }, async (c) => {
        expect(c.signal.aborted).toBe(false);
        signal = c.signal;
        return { ok: true };
      }),
    );

    const res = await app.inject('/fast');
    expect(res.json()).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(isKError(signal?.reason)).toBe(false);
  });

  it('applies the app default to every route, which a route overrides or turns off with 0', async () => {
    const { app } = testApp({ timeoutMs: 20 });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    app.addRoutes(
      get('/default', async (c) => aborted(c.signal).then(() => ({}))),
      get('/longer', { timeoutMs: 2000 }, async () => wait(60).then(() => ({ ok: 'longer' }))),
      get('/none', { timeoutMs: 0 }, async () => wait(60).then(() => ({ ok: 'none' }))),
    );

    expect((await app.inject('/default')).statusCode).toBe(504);
    expect((await app.inject('/longer')).json()).toEqual({ ok: 'longer' });
    expect((await app.inject('/none')).json()).toEqual({ ok: 'none' });
    expect((await app.inject('/health')).statusCode).toBe(200);
  });

  it('answers 504 over a real socket', async () => {
    const { app } = testApp();
    app.addRoutes(get('/slow', { timeoutMs: 30 }, async (c) => aborted(c.signal).then(() => ({}))));
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/slow`);
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ code: 'TIMEOUT' });
    } finally {
      await app.fastify.close();
    }
  });

  it('refuses a timeout that is not a whole number of milliseconds', async () => {
    expect(() => testApp({ timeoutMs: -1 })).toThrow(/timeoutMs/);
    const { app } = testApp();
    app.addRoutes(get('/x', { timeoutMs: 1.5 }, () => ({})));
    await expect(app.ready()).rejects.toThrow(/route GET \/x: timeoutMs/);
  });
});

describe('c.signal', () => {
  it('stays unaborted after a normal answer, under inject() as over a socket', async () => {
    const { app } = testApp();
    const signals: AbortSignal[] = [];
    app.addRoutes(
      get('/x', (c) => {
        signals.push(c.signal);
        return { ok: true };
      }),
    );
    expect((await app.inject('/x')).statusCode).toBe(200);
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as AddressInfo;
      expect((await fetch(`http://127.0.0.1:${port}/x`)).status).toBe(200);
      // The response's `close` comes a tick after the answer.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    } finally {
      app.fastify.server.closeAllConnections();
      await app.fastify.close();
    }
  });

  it('aborts when the client disconnects', async () => {
    const { app } = testApp();
    let reason: Promise<unknown> | undefined;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    app.addRoutes(
      get('/hang', async (c) => {
        reason = aborted(c.signal);
        entered();
        await reason;
        return {};
      }),
    );
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as AddressInfo;
      const client = new AbortController();
      const pending = fetch(`http://127.0.0.1:${port}/hang`, { signal: client.signal }).catch(
        () => undefined,
      );
      await inside;
      client.abort();
      await pending;
      expect(String(await reason)).toContain('client closed the connection');
    } finally {
      // The client library may keep its half of the connection until keep-alive ends.
      app.fastify.server.closeAllConnections();
      await app.fastify.close();
    }
  });

  it('aborts when the shutdown deadline passes', async () => {
    const { app } = testApp({ shutdownTimeoutMs: 50 });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let reason: unknown;
    app.addRoutes(
      get('/work', async (c) => {
        const r = aborted(c.signal);
        entered();
        reason = await r;
        return { stopped: true };
      }),
    );
    // A hook that runs until the deadline keeps the shutdown going that long.
    app.onShutdown((signal) => aborted(signal).then(() => undefined));
    const res = app.inject('/work');
    await inside;
    await app.close();

    expect(String(reason)).toMatch(/shutdown deadline/);
    expect((await res).json()).toEqual({ stopped: true });
  });
});
