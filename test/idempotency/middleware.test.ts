import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type IdempotencyOptions,
  type IdempotencyStore,
  idempotency,
  memoryIdempotencyStore,
} from '../../src/idempotency/index.js';
import { type App, type Context, type Middleware, post, unauthorized } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

type Handler = (c: Context) => unknown;

const apps: App[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function one(
  handler: Handler,
  options: Partial<IdempotencyOptions> = {},
  outer: Middleware[] = [],
) {
  const { app, lines } = testApp();
  apps.push(app);
  const mw = idempotency({ store: memoryIdempotencyStore(), ...options });
  app.addRoutes(post('/op', { middleware: [...outer, mw] }, handler));
  const send = (key: string | string[] | undefined, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/op',
      payload: {},
      headers: { ...extra, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  return { app, lines, send };
}

describe('idempotency keys', () => {
  it('takes a bare key and the same key quoted as a Structured Field string', async () => {
    let runs = 0;
    const { send } = one(() => ({ runs: ++runs }));
    expect((await send('abc-123')).json()).toEqual({ runs: 1 });
    const quoted = await send('"abc-123"');
    expect([quoted.json(), quoted.headers['idempotent-replayed']]).toEqual([{ runs: 1 }, 'true']);
  });

  it('answers 400 to an empty, too long or non-ASCII key, and to two keys', async () => {
    let runs = 0;
    const { send } = one(() => ++runs);
    for (const bad of ['""', 'x'.repeat(256), 'clé', 'a"b', 'a,b', ['k1', 'k2']]) {
      const res = await send(bad);
      expect([res.statusCode, res.headers['content-type']], String(bad)).toEqual([
        400,
        'application/problem+json; charset=utf-8',
      ]);
    }
    expect((await send('x'.repeat(255))).statusCode).toBe(200);
    expect(runs).toBe(1);
  });

  it('keeps one space of keys per scope', async () => {
    let runs = 0;
    const { send } = one(() => ++runs, { scope: (c) => String(c.headers['x-tenant']) });
    await send('k', { 'x-tenant': 'a' });
    await send('k', { 'x-tenant': 'b' });
    const replay = await send('k', { 'x-tenant': 'a' });
    expect([replay.json(), runs]).toEqual([1, 2]);
  });
});

describe('the body', () => {
  it('is read for the fingerprint after the middleware outside, which may refuse it unread', async () => {
    let runs = 0;
    const guard: Middleware = (c, next) => {
      if (c.request.headers.authorization === undefined) throw unauthorized();
      expect(c.body).toBeUndefined(); // not read yet: idempotency reads it
      return next();
    };
    const { send } = one((c) => ({ runs: ++runs, body: c.body }), {}, [guard]);
    expect((await send('k')).statusCode).toBe(401);
    const auth = { authorization: 'Bearer x' };
    expect((await send('k', auth)).json()).toEqual({ runs: 1, body: {} });
    expect((await send('k', auth)).headers['idempotent-replayed']).toBe('true');
  });

  it('answers a body the parser refuses with its own 400, and keeps nothing', async () => {
    let runs = 0;
    const { app, lines } = one(() => ++runs);
    const bad = () =>
      app.inject({
        method: 'POST',
        url: '/op',
        payload: '{"not json',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
      });
    expect((await bad()).statusCode).toBe(400);
    expect((await bad()).statusCode).toBe(400);
    expect(runs).toBe(0);
    expect(lines.map((l) => JSON.parse(l).status)).toEqual([400, 400]); // one entry each, nothing else
  });
});

describe('what a replay gives back', () => {
  it('replays the headers the handler set, not those of the middleware outside', async () => {
    let n = 0;
    const outer: Middleware = (c, next) => {
      c.header('x-outer', String(++n));
      return next();
    };
    const { send } = one(
      (c) => {
        c.header('x-handler', `run ${n}`);
        return c.created({ ok: true });
      },
      {},
      [outer],
    );
    const first = await send('k');
    const again = await send('k');
    expect(again.headers['x-handler']).toBe('run 1');
    expect(again.headers['x-outer']).toBe('2');
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('replays text, bytes and no body with their status and content type', async () => {
    const bodies: Record<string, Handler> = {
      text: () => 'plain words',
      typed: (c) => {
        c.header('content-type', 'text/csv');
        return 'a,b\n1,2\n';
      },
      bytes: (c) => {
        c.header('content-type', 'application/octet-stream');
        return Buffer.from([0, 1, 2, 255]);
      },
      none: () => undefined,
      accepted: (c) => {
        c.reply.code(202);
        return undefined;
      },
    };
    for (const [name, handler] of Object.entries(bodies)) {
      const { send } = one(handler);
      const first = await send(name);
      const again = await send(name);
      expect(again.headers['idempotent-replayed'], name).toBe('true');
      expect([again.statusCode, again.rawPayload, again.headers['content-type']], name).toEqual([
        first.statusCode,
        first.rawPayload,
        first.headers['content-type'],
      ]);
    }
  });

  it('keeps no streamed answer, says so in the log, and runs the retry again', async () => {
    let runs = 0;
    const { send, lines } = one((c) => {
      runs++;
      c.header('content-type', 'text/plain');
      return Readable.from(['streamed']);
    });
    expect((await send('k')).body).toBe('streamed');
    const again = await send('k');
    expect([again.body, again.headers['idempotent-replayed'], runs]).toEqual([
      'streamed',
      undefined,
      2,
    ]);
    const warnings = lines.map((l) => JSON.parse(l)).filter((e) => e.level === 'warn');
    expect(warnings.map((e) => e.message)).toEqual([
      expect.stringMatching(/cannot be kept; the key is released/),
      expect.stringMatching(/cannot be kept; the key is released/),
    ]);
  });

  it('runs a request again once its answer is older than ttlMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let runs = 0;
    const { send } = one(() => ++runs, { ttlMs: 1000 });
    await send('k');
    vi.setSystemTime(Date.now() + 999);
    expect((await send('k')).json()).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect((await send('k')).json()).toBe(2);
  });
});

describe('the memory store', () => {
  it('lets another request claim a key whose holder passed lockMs (its process died)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = memoryIdempotencyStore();
    const first = await store.claim('k', 'fp', 1000);
    expect(first.state).toBe('claimed');
    expect(await store.claim('k', 'fp', 1000)).toEqual({ state: 'running', fingerprint: 'fp' });
    vi.setSystemTime(Date.now() + 1000);
    const second = await store.claim('k', 'fp', 1000);
    expect(second.state).toBe('claimed');
    // The late holder can no longer complete or release the key.
    const answer = { status: 200, headers: {}, body: { kind: 'none' } } as const;
    if (first.state === 'claimed') {
      await store.complete('k', first.token, answer, 1000);
      await store.release('k', first.token);
    }
    expect(await store.claim('k', 'fp', 1000)).toEqual({ state: 'running', fingerprint: 'fp' });
  });

  it('keeps at most maxKeys records, dropping the oldest', async () => {
    const store = memoryIdempotencyStore({ maxKeys: 2 });
    for (const k of ['a', 'b', 'c']) await store.claim(k, 'fp', 60_000);
    expect((await store.claim('a', 'fp', 60_000)).state).toBe('claimed');
    expect((await store.claim('c', 'fp', 60_000)).state).toBe('running');
  });
});

describe('when the store fails', () => {
  it('answers 503 and frees the key when the answer cannot be kept, so the retry runs', async () => {
    const memory = memoryIdempotencyStore();
    let failures = 1;
    const store: IdempotencyStore = {
      claim: (...a) => memory.claim(...a),
      release: (...a) => memory.release(...a),
      complete: async (...a) => {
        if (failures-- > 0) throw new Error('store down');
        return memory.complete(...a);
      },
    };
    let runs = 0;
    const { send } = one(() => ++runs, { store });
    const failed = await send('k');
    expect([failed.statusCode, failed.headers['retry-after'], failed.json().code]).toEqual([
      503,
      '1',
      'SERVICE_UNAVAILABLE',
    ]);
    expect((await send('k')).json()).toBe(2);
    expect((await send('k')).headers['idempotent-replayed']).toBe('true');
  });

  it('answers 422, not 409, to another request with the key of one still running', async () => {
    const store = memoryIdempotencyStore();
    await store.claim('k', 'another fingerprint', 60_000);
    const { send } = one(() => 'x', { store });
    expect((await send('k')).statusCode).toBe(422);
  });
});

describe('idempotency options', () => {
  it('refuses a missing store, bad durations and a scope that is not a function', () => {
    const store = memoryIdempotencyStore();
    expect(() => idempotency({} as IdempotencyOptions)).toThrow(/store must be/);
    expect(() => idempotency({ store: {} as never })).toThrow(/claim, complete and release/);
    expect(() => idempotency({ store, ttlMs: 0 })).toThrow('ttlMs must be an integer >= 1, got 0');
    expect(() => idempotency({ store, lockMs: 1.5 })).toThrow('lockMs must be an integer');
    expect(() => idempotency({ store, scope: 'user' as never })).toThrow(/scope must be/);
    expect(() => memoryIdempotencyStore({ maxKeys: 0 })).toThrow(/maxKeys/);
  });
});
