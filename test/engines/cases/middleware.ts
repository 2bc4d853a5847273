/**
 * Engine cases: what runs around a handler, over a socket (a bearer guard and its typed user, a
 * route timeout, a rate limit) and the database layer (keelson/db on PGlite in memory).
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bearer } from '../../../src/auth/index.js';
import { conflict, get, guarded, post, rateLimit } from '../../../src/index.js';
import { testDatabase } from '../../../src/testing/database.js';
import { type EngineName, engineApp, listen, type Served, settled } from '../harness.js';

const TOKENS = new Map([['token-ada', { id: 1, name: 'ada' }]]);

/** The middleware and database cases, run on `engine`. */
export function middlewareCases(engine: EngineName): void {
  describe('guards, timeouts and rate limits', () => {
    let s: Served;
    beforeAll(async () => {
      const made = engineApp(engine);
      const authed = guarded(bearer({ verify: (token) => TOKENS.get(token) }));
      made.app.addRoutes(
        // c.user is typed by the guard: `name` is a string here, no cast.
        authed.get('/me', (c) => ({ id: c.user.id, name: c.user.name.toUpperCase() })),
        get('/slow', { timeoutMs: 50 }, async (c) => {
          await new Promise((resolve) => c.signal.addEventListener('abort', resolve));
          return { late: true };
        }),
        get('/limited', { middleware: [rateLimit({ max: 2, windowMs: 60_000 })] }, () => ({
          ok: true,
        })),
      );
      s = await listen(made);
    });
    afterAll(() => s?.close());

    it('answers 401 with a challenge without a valid token, and gives the handler the user', async () => {
      const none = await s.send('/me');
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect(none.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(none.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      const wrong = await s.send('/me', { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toBe(
        'Bearer error="invalid_token", error_description="The token is not valid."',
      );
      const ok = await s.send('/me', { headers: { authorization: 'Bearer token-ada' } });
      expect(ok.status).toBe(200);
      expect(ok.json()).toEqual({ id: 1, name: 'ADA' });
    });

    it('answers 504 TIMEOUT when the route timeout passes, and aborts c.signal', async () => {
      const started = performance.now();
      const res = await s.send('/slow', { headers: { 'x-request-id': 'req-504' } });
      expect(res.status).toBe(504);
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Gateway Timeout',
        status: 504,
        detail: expect.any(String),
        code: 'TIMEOUT',
        requestId: 'req-504',
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    });

    it('counts down RateLimit-Remaining, then answers 429 with Retry-After', async () => {
      const answers = [
        await s.send('/limited'),
        await s.send('/limited'),
        await s.send('/limited'),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      const limits = answers.map((a) => [
        a.headers['ratelimit-limit'],
        a.headers['ratelimit-remaining'],
      ]);
      expect(limits).toEqual([
        ['2', '1'],
        ['2', '0'],
        ['2', '0'],
      ]);
      const [, , refused] = answers;
      const retryAfter = Number(refused?.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused?.headers['ratelimit-reset']).toBe(String(retryAfter));
      expect(refused?.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(refused?.json()).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    });
  });

  describe('the database layer (keelson/db, PGlite in memory)', () => {
    it('commits a transactional write before the answer, rolls back a failed one, and answers health', async () => {
      const made = engineApp(engine);
      const db = await testDatabase({ logger: made.app.logger });
      await db.query('create table notes (id serial primary key, body text not null)');
      const Note = z.object({ body: z.string() });
      made.app.use(db);
      made.app.addRoutes(
        post('/notes', { body: Note, middleware: [db.transactional()] }, async (c) => {
          const [row] = await db.sql<{ id: number }>`
            insert into notes (body) values (${c.body.body}) returning id`;
          if (c.body.body === 'taken') throw conflict('that note exists');
          return c.created({ id: row?.id });
        }),
        get('/notes', () => db.sql`select body from notes order by id`),
      );
      const s = await listen(made);
      const created = await s.send('/notes', { method: 'POST', body: { body: 'first' } });
      expect(created.status).toBe(201);
      expect(created.json()).toEqual({ id: 1 });
      // Another connection, right after the answer: the write is there.
      expect((await s.send('/notes')).json()).toEqual([{ body: 'first' }]);
      const refused = await s.send('/notes', { method: 'POST', body: { body: 'taken' } });
      expect(refused.status).toBe(409);
      expect((await s.send('/notes')).json()).toEqual([{ body: 'first' }]);
      const health = await s.send('/health');
      expect(health.json()).toMatchObject({ status: 'UP', checks: { database: 'UP' } });
      await settled(s, 5);
      expect(await s.close()).toBe(true);
      await expect(db.query('select 1')).rejects.toThrow('the database is closed');
    });
  });
}
