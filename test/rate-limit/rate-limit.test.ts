import { afterEach, describe, expect, it, vi } from 'vitest';
import { middlewareDocsOf } from '../../src/extend/index.js';
import { type App, type Context, get, rateLimit } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { type Answer, send, serve } from '../support/serve.js';

const apps: App[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function start(app: App): Promise<number> {
  apps.push(app);
  return serve(app);
}

function limitHeaders(res: Answer) {
  return {
    limit: res.headers['ratelimit-limit'],
    remaining: res.headers['ratelimit-remaining'],
    reset: res.headers['ratelimit-reset'],
  };
}

describe('rateLimit', () => {
  it('counts down RateLimit-Remaining, then answers 429 problem+json with Retry-After', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/limited', { middleware: [rateLimit({ max: 2, windowMs: 60_000 })] }, () => ({ ok: 1 })),
    );
    const port = await start(app);
    const first = await send(port, '/limited');
    const second = await send(port, '/limited');
    const third = await send(port, '/limited');
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(limitHeaders(first)).toEqual({ limit: '2', remaining: '1', reset: '60' });
    expect(limitHeaders(second)).toMatchObject({ limit: '2', remaining: '0' });
    expect(limitHeaders(third)).toMatchObject({ limit: '2', remaining: '0' });
    const retryAfter = Number(third.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(third.headers['ratelimit-reset']).toBe(String(retryAfter));
    expect(third.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(third.text)).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    expect(requestEntries(lines).map((e) => e.status)).toEqual([200, 200, 429]);
  });

  it('counts every route of a group together, and leaves the routes outside it alone', async () => {
    const { app } = testApp();
    app.group('/api', rateLimit({ max: 2, windowMs: 60_000 })).addRoutes(
      get('/a', () => 'a'),
      get('/b', () => 'b'),
    );
    app.addRoutes(get('/free', () => 'free'));
    const port = await start(app);
    const statuses: number[] = [];
    for (const path of ['/api/a', '/api/b', '/api/a', '/free', '/free', '/free']) {
      statuses.push((await send(port, path)).status);
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 200]);
    expect((await send(port, '/free')).headers['ratelimit-limit']).toBeUndefined();
  });

  it('covers every route of the app when used on it, but not /health', async () => {
    const { app } = testApp();
    app.use(rateLimit({ max: 1, windowMs: 60_000 }));
    app.addRoutes(get('/x', () => 'x'));
    const port = await start(app);
    expect((await send(port, '/x')).status).toBe(200);
    expect((await send(port, '/x')).status).toBe(429);
    expect((await send(port, '/health')).status).toBe(200);
  });

  it('keeps one counter per key', async () => {
    const { app } = testApp();
    const byKey = (c: Context) => String(c.request.headers['x-api-key'] ?? 'anonymous');
    app.addRoutes(
      get('/k', { middleware: [rateLimit({ max: 1, windowMs: 60_000, key: byKey })] }, () => 'k'),
    );
    const port = await start(app);
    const as = (key: string) => send(port, '/k', { headers: { 'x-api-key': key } });
    expect((await as('alice')).status).toBe(200);
    expect((await as('bob')).status).toBe(200);
    expect((await as('alice')).status).toBe(429);
    expect((await as('bob')).status).toBe(429);
  });

  it('lets requests through again once the window has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { app } = testApp();
    app.addRoutes(get('/w', { middleware: [rateLimit({ max: 1, windowMs: 10_000 })] }, () => 'w'));
    const port = await start(app);
    expect((await send(port, '/w')).status).toBe(200);
    vi.advanceTimersByTime(5_000);
    const blocked = await send(port, '/w');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBe('5');
    vi.advanceTimersByTime(5_000);
    expect((await send(port, '/w')).status).toBe(200);
  });

  it('fails open, and warns once, when its store fails', async () => {
    const { app, lines } = testApp();
    const broken = { hit: () => Promise.reject(new Error('store down')) };
    app.addRoutes(
      get(
        '/o',
        { middleware: [rateLimit({ max: 1, windowMs: 60_000, store: broken })] },
        () => 'o',
      ),
    );
    const port = await start(app);
    for (let i = 0; i < 3; i++) expect((await send(port, '/o')).status).toBe(200);
    const warnings = lines.filter((l) => l.includes('store failed'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn' });
    expect(warnings[0]).toContain('store down');
  });

  it('answers 500 and logs the cause when key() throws, and never lets the request through', async () => {
    const { app, lines } = testApp();
    // An optional guard: the user is set only when a token came, so c.user.sub throws without one.
    const optionalUser = async (c: Context, next: () => Promise<unknown>) => {
      if (c.request.headers.authorization === 'Bearer t') c.user = { sub: 'ada' };
      return next();
    };
    const bySub = (c: Context) => (c.user as { sub: string }).sub;
    let ran = 0;
    app.addRoutes(
      get(
        '/me',
        { middleware: [optionalUser, rateLimit({ max: 1, windowMs: 60_000, key: bySub })] },
        () => {
          ran++;
          return 'me';
        },
      ),
    );
    const port = await start(app);
    const anonymous: number[] = [];
    for (let i = 0; i < 10; i++) anonymous.push((await send(port, '/me')).status);
    expect(anonymous).toEqual(Array(10).fill(500));
    expect(ran).toBe(0);
    const withToken = { headers: { authorization: 'Bearer t' } };
    expect((await send(port, '/me', withToken)).status).toBe(200);
    expect((await send(port, '/me', withToken)).status).toBe(429);
    const entries = requestEntries(lines);
    expect(entries.map((e) => e.status)).toEqual([...Array(10).fill(500), 200, 429]);
    expect(entries[0]).toMatchObject({ level: 'error' });
    expect(String(entries[0]!.error)).toContain('rate limit 1/60000: key() threw');
    expect(String(entries[0]!.error)).toMatch(/caused by: TypeError/);
    expect(lines.some((l) => l.includes('store failed'))).toBe(false);
  });

  it('declares its 429 and headers for the docs', () => {
    const docs = middlewareDocsOf(rateLimit({ max: 1, windowMs: 1000 }));
    expect(Object.keys(docs?.responses ?? {})).toEqual(['429']);
    expect(Object.keys(docs?.responses?.[429]?.headers ?? {}).sort()).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
  });

  it('refuses bad options, naming them', () => {
    expect(() => rateLimit({ max: 0, windowMs: 1000 })).toThrow(
      'rateLimit max must be an integer >= 1, got 0',
    );
    expect(() => rateLimit({ max: 1, windowMs: -5 })).toThrow(
      'rateLimit windowMs must be an integer >= 1, got -5',
    );
    expect(() => rateLimit({ max: 1.5, windowMs: 1000 })).toThrow(/max/);
    expect(() => rateLimit({ max: 1, windowMs: 1000, store: {} as never })).toThrow(/hit\(key/);
  });
});
