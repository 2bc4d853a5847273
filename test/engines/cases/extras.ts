/**
 * Engine cases: more of what the Bun engine promises to run as the Fastify engine does (a JWT
 * guard, idempotency keys, pagination, groups with middleware and versions), and app.inject()
 * answering as the socket does.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jwt } from '../../../src/auth/index.js';
import {
  get,
  guarded,
  idempotency,
  type Middleware,
  memoryIdempotencyStore,
  paginate,
  paginated,
  pagination,
  post,
} from '../../../src/index.js';
import { type EngineName, engineApp, listen, type Served } from '../harness.js';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const Claims = z.object({ sub: z.string(), role: z.enum(['user', 'admin']) });

/** The extra cases, run on `engine`. */
export function extraCases(engine: EngineName): void {
  describe('JWT, idempotency, pagination, groups and inject', () => {
    const auth = jwt({ secret: SECRET, claims: Claims });
    let s: Served;
    let orders = 0;
    beforeAll(async () => {
      const made = engineApp(engine);
      const tagged: Middleware = async (c, next) => {
        c.reply.header('x-group', 'v2');
        return next();
      };
      made.app.addRoutes(
        guarded(auth).get('/whoami', (c) => ({ sub: c.user.sub, role: c.user.role })),
        post(
          '/orders',
          {
            body: z.object({ item: z.string() }),
            middleware: [idempotency({ store: memoryIdempotencyStore() })],
          },
          (c) => c.created({ order: ++orders, item: c.body.item }),
        ),
        get(
          '/letters',
          {
            query: pagination({ defaultLimit: 2, maxLimit: 3 }),
            responses: { 200: paginated(z.string()) },
          },
          (c) => {
            const all = ['a', 'b', 'c', 'd', 'e'];
            const { offset, limit } = c.query;
            return paginate(all.slice(offset, offset + limit), all.length, c.query);
          },
        ),
      );
      made.app.group('/api', { version: '2' }, tagged).addRoutes(get('/ping', () => 'pong'));
      s = await listen(made);
    });
    afterAll(() => s?.close());

    it('lets a signed JWT through with its typed claims, and refuses one signed with another key', async () => {
      const token = await auth.sign({ sub: 'u1', role: 'admin' });
      const ok = await s.send('/whoami', { headers: { authorization: `Bearer ${token}` } });
      expect([ok.status, ok.json()]).toEqual([200, { sub: 'u1', role: 'admin' }]);
      const forged = await jwt({ secret: `other-${SECRET}`, claims: Claims }).sign({
        sub: 'u1',
        role: 'admin',
      });
      const refused = await s.send('/whoami', { headers: { authorization: `Bearer ${forged}` } });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    });

    it('replays the answer to a retried idempotency key, and refuses the key on another body', async () => {
      const key = randomUUID();
      const headers = { 'idempotency-key': `"${key}"` };
      const first = await s.send('/orders', { method: 'POST', headers, body: { item: 'tea' } });
      const retry = await s.send('/orders', { method: 'POST', headers, body: { item: 'tea' } });
      expect([first.status, retry.status]).toEqual([201, 201]);
      expect(retry.json()).toEqual(first.json());
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const reused = await s.send('/orders', { method: 'POST', headers, body: { item: 'milk' } });
      expect(reused.status).toBe(422);
      expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    });

    it('pages a list, and answers 422 to a limit over the maximum', async () => {
      const page = await s.send('/letters?page=2&limit=2');
      expect(page.json()).toEqual({ data: ['c', 'd'], page: 2, limit: 2, total: 5, totalPages: 3 });
      expect((await s.send('/letters?limit=4')).status).toBe(422);
    });

    it("runs a group's middleware under its prefix", async () => {
      const res = await s.send('/api/ping');
      expect([res.status, res.json(), res.headers['x-group']]).toEqual([200, 'pong', 'v2']);
    });

    it('answers app.inject() as it answers the socket', async () => {
      const requests = [
        { method: 'GET', url: '/api/ping' },
        { method: 'GET', url: '/letters?limit=9' },
        { method: 'POST', url: '/orders', payload: { item: 1 } },
        { method: 'DELETE', url: '/letters' },
        { method: 'GET', url: '/whoami' },
      ] as const;
      for (const r of requests) {
        const injected = await s.app.inject({ ...r, headers: { 'x-request-id': 'same' } });
        const sent = await s.send(r.url, {
          method: r.method,
          headers: { 'x-request-id': 'same' },
          ...('payload' in r ? { body: r.payload } : {}),
        });
        expect([r.url, injected.statusCode, injected.body]).toEqual([
          r.url,
          sent.status,
          sent.text,
        ]);
        for (const name of ['content-type', 'allow', 'www-authenticate', 'x-request-id']) {
          expect([name, injected.headers[name]]).toEqual([name, sent.headers[name]]);
        }
      }
    });
  });
}
