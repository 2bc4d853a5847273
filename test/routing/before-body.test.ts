import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, type Middleware, post } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const Note = z.object({ text: z.string() });
const json = { 'content-type': 'application/json' };

function appWith(middleware: Middleware[], handler = (c: { body: unknown }) => c.body) {
  const { app, lines } = testApp();
  apps.push(app);
  app.addRoutes(
    post('/notes', { body: Note, middleware }, handler),
    post('/notes/:id', { body: Note, middleware }, handler),
  );
  return { app, lines };
}

describe('middleware of a route that takes a body runs before the body is read', () => {
  it('sees no body before next() and the validated body after it', async () => {
    const seen: unknown[] = [];
    const peek: Middleware = async (c, next) => {
      seen.push(c.body);
      const out = await next();
      seen.push(c.body);
      return out;
    };
    const { app } = appWith([peek]);
    const res = await app.inject({
      method: 'POST',
      url: '/notes',
      headers: json,
      payload: '{"text":"hi"}',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { text: 'hi' }]);
    expect(seen).toEqual([undefined, { text: 'hi' }]);
  });

  it('goes on when a middleware calls next() at once, without awaiting anything first', async () => {
    const sync: Middleware = (_c, next) => next();
    const { app } = appWith([sync, sync as Middleware]);
    const res = await app.inject({
      method: 'POST',
      url: '/notes',
      headers: json,
      payload: '{"text":"a"}',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { text: 'a' }]);
  });

  it('answers what a middleware returns without calling next(), and never reads the body', async () => {
    let handled = 0;
    const cached: Middleware = async () => ({ text: 'cached' });
    const { app, lines } = appWith([cached], () => {
      handled++;
      return { text: 'handler' };
    });
    const res = await app.inject({
      method: 'POST',
      url: '/notes',
      headers: json,
      payload: '{"text":',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { text: 'cached' }]);
    expect(handled).toBe(0);
    expect(requestEntries(lines).map((e) => [e.path, e.status])).toEqual([['/notes', 200]]);
  });

  it('answers the error a middleware throws after next()', async () => {
    const after: Middleware = async (_c, next) => {
      await next();
      throw Object.assign(new Error('after'), { statusCode: 409 });
    };
    const { app } = appWith([after]);
    const res = await app.inject({
      method: 'POST',
      url: '/notes',
      headers: json,
      payload: '{"text":"x"}',
    });
    expect(res.statusCode).toBe(409);
  });

  it('answers 400 to a body that does not parse, and the middleware waiting on next() is told', async () => {
    const told: string[] = [];
    const watch: Middleware = async (_c, next) => {
      try {
        return await next();
      } catch (err) {
        told.push((err as Error).message);
        throw err;
      }
    };
    const { app, lines } = appWith([watch]);
    const res = await app.inject({
      method: 'POST',
      url: '/notes',
      headers: json,
      payload: '{"text":',
    });
    expect(res.statusCode).toBe(400);
    await expect.poll(() => told).toEqual(['the request was answered before its body was parsed']);
    expect(requestEntries(lines).map((e) => [e.path, e.status])).toEqual([['/notes', 400]]);
  });

  it('runs the chain in the handler step for a request without a body, and 404s an empty parameter first', async () => {
    let ran = 0;
    const count: Middleware = async (_c, next) => {
      ran++;
      return next();
    };
    const { app } = appWith([count]);
    const empty = await app.inject({ method: 'POST', url: '/notes' });
    expect(empty.statusCode).toBe(422);
    const noId = await app.inject({
      method: 'POST',
      url: '/notes/',
      headers: json,
      payload: '{"text":"x"}',
    });
    expect(noId.statusCode).toBe(404);
    expect(ran).toBe(1);
  });
});
