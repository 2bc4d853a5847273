import { describe, expect, it, vi } from 'vitest';
import { cookiesPlugin } from '../../src/cookies/index.js';
import { middlewareDocsOf } from '../../src/extend/index.js';
import { get, memoryStore, rateLimit, redisStore } from '../../src/index.js';
import { formatEvent } from '../../src/sse/index.js';
import { testApp } from '../app/helpers.js';

// The option checks and boundaries of sse, rate-limit and cookies, each named.

describe('formatEvent', () => {
  it('writes id, event and retry before the data, one data line per line of text', () => {
    expect(formatEvent({ id: '7', event: 'tick', retry: 0, data: 'a\nb\r\nc' })).toBe(
      'id: 7\nevent: tick\nretry: 0\ndata: a\ndata: b\ndata: c\n\n',
    );
    expect(formatEvent({ data: { n: 1 } })).toBe('data: {"n":1}\n\n');
  });

  it('refuses an event that is not an object, saying what it got', () => {
    for (const [bad, got] of [
      ['x', 'string'],
      [null, 'object'],
    ] as const) {
      expect(() => formatEvent(bad as never)).toThrow(
        new TypeError(`an event must be an object { data, event?, id?, retry? }, got ${got}`),
      );
    }
  });

  it('refuses a retry that is not a whole number of at least 0', () => {
    for (const retry of [-1, 1.5, Number.NaN]) {
      expect(() => formatEvent({ data: 1, retry })).toThrow(
        new TypeError(`an event's retry must be an integer >= 0, got ${String(retry)}`),
      );
    }
  });

  it('refuses data JSON cannot encode', () => {
    expect(() => formatEvent({ data: undefined })).toThrow(
      new TypeError('an event needs data that JSON can encode'),
    );
  });

  it('refuses a line break in id or event, naming the field', () => {
    expect(() => formatEvent({ data: 1, id: 'a\nb' })).toThrow(
      "an event's id must not contain a line break",
    );
    expect(() => formatEvent({ data: 1, event: 'a\rb' })).toThrow(
      "an event's event must not contain a line break",
    );
  });
});

describe('rateLimit and its stores refuse bad options', () => {
  it('takes a window of 1 ms and refuses 0', () => {
    expect(rateLimit({ max: 1, windowMs: 1 })).toBeTypeOf('function');
    expect(() => rateLimit({ max: 1, windowMs: 0 })).toThrow(
      'rateLimit windowMs must be an integer >= 1, got 0',
    );
  });

  it('refuses a key that is not a function', () => {
    expect(() => rateLimit({ max: 1, windowMs: 1, key: 'ip' as never })).toThrow(
      new TypeError('rateLimit key must be a function'),
    );
  });

  it('memoryStore takes 1 key at least', () => {
    expect(memoryStore({ maxKeys: 1 }).hit).toBeTypeOf('function');
    for (const maxKeys of [0, 1.5]) {
      expect(() => memoryStore({ maxKeys })).toThrow(
        new TypeError(`memoryStore maxKeys must be an integer >= 1, got ${maxKeys}`),
      );
    }
  });

  it('redisStore wants an ioredis client and a timeout of 1 ms at least', () => {
    const client = { defineCommand() {}, status: 'ready' } as never;
    expect(redisStore(client, { timeoutMs: 1 }).hit).toBeTypeOf('function');
    for (const bad of [undefined, {}]) {
      expect(() => redisStore(bad as never)).toThrow(
        new TypeError('redisStore takes an ioredis client (npm install ioredis)'),
      );
    }
    for (const timeoutMs of [0, 2.5]) {
      expect(() => redisStore(client, { timeoutMs })).toThrow(
        new TypeError(`redisStore timeoutMs must be an integer >= 1, got ${timeoutMs}`),
      );
    }
  });

  it('redisStore fails a hit at once while the client is not ready', async () => {
    const client = { defineCommand() {}, status: 'reconnecting' } as never;
    await expect(redisStore(client).hit('k', 1_000, 5)).rejects.toThrow(
      'redis is not ready (reconnecting)',
    );
  });
});

describe('cookies.secret', () => {
  it('takes a secret of exactly 32 characters and refuses 31, naming its place in a list', () => {
    expect(cookiesPlugin({ secret: 'x'.repeat(32) })).toBeTypeOf('function');
    expect(() => cookiesPlugin({ secret: 'x'.repeat(31) })).toThrow(
      new TypeError('cookies.secret must be a string of at least 32 characters, got 31 characters'),
    );
    expect(() => cookiesPlugin({ secret: ['x'.repeat(32), 7 as never] })).toThrow(
      new TypeError('cookies.secret[1] must be a string of at least 32 characters, got number'),
    );
  });
});

describe('signed cookies (inject)', () => {
  const SECRET = 'a-cookie-secret-of-at-least-32-chars!';

  it('reads a tampered signed cookie as undefined, not null', async () => {
    const { app } = testApp({ cookies: { secret: SECRET } });
    app.addRoutes(get('/read', (c) => ({ kind: typeof c.signedCookie('user') })));
    const res = await app.inject({ url: '/read', headers: { cookie: 'user=eve.forged' } });
    expect(res.json()).toEqual({ kind: 'undefined' });
  });

  it('names the cookie, or the read, that needs a secret', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/sign', (c) => c.setCookie('user', 'ada', { signed: true }) && { ok: true }),
      get('/read', (c) => ({ user: c.signedCookie('user') ?? null })),
    );
    expect((await app.inject('/sign')).statusCode).toBe(500);
    expect((await app.inject('/read')).statusCode).toBe(500);
    const log = lines.join('\n');
    expect(log).toContain(
      'the signed cookie \\"user\\" needs a secret: pass cookies: { secret } to new App()',
    );
    expect(log).toContain('c.signedCookie(\\"user\\") needs a secret');
  });
});

describe('rateLimit answers and documents', () => {
  it('declares its 429 with the four headers it sends', () => {
    const count = { type: 'integer' };
    expect(middlewareDocsOf(rateLimit({ max: 1, windowMs: 1_000 }))?.responses).toEqual({
      429: {
        codes: ['TOO_MANY_REQUESTS'],
        description: 'Too many requests',
        headers: {
          'Retry-After': { description: 'Seconds until the window resets.', schema: count },
          'RateLimit-Limit': { description: 'Requests allowed per window.', schema: count },
          'RateLimit-Remaining': {
            description: 'Requests left in the current window.',
            schema: count,
          },
          'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: count },
        },
      },
    });
  });

  it('says the limit, the window and when to retry in its 429', async () => {
    const { app } = testApp();
    const store = { hit: async () => ({ count: 3, resetMs: 1_500 }) };
    app.addRoutes(
      get('/x', { middleware: [rateLimit({ max: 2, windowMs: 60_000, store })] }, () => 'ok'),
    );
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toBe('Too many requests: at most 2 per 60000 ms. Retry in 2 s.');
  });

  it('warns about a failing store at most once per 10 s, and again at 10 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      const { app, lines } = testApp();
      const store = {
        hit: async (): Promise<never> => {
          throw new Error('down');
        },
      };
      app.addRoutes(
        get('/x', { middleware: [rateLimit({ max: 2, windowMs: 1_000, store })] }, () => 'ok'),
      );
      const warnings = () => lines.filter((l) => l.includes('store failed')).length;
      expect((await app.inject('/x')).statusCode).toBe(200);
      vi.setSystemTime(1_009_999);
      await app.inject('/x');
      expect(warnings()).toBe(1);
      vi.setSystemTime(1_010_000);
      await app.inject('/x');
      expect(warnings()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
