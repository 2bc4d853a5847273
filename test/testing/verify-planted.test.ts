import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bearer } from '../../src/auth/index.js';
import {
  del,
  get,
  guarded,
  notFound,
  post,
  serviceUnavailable,
  unprocessable,
} from '../../src/index.js';
import { verifyContract } from '../../src/testing/index.js';
import { testApp } from '../app/helpers.js';

// Services with one planted bug each, of a kind verifyContract used to miss: every answer they
// send is declared, yet a valid request fails. The assertions read the report as an array, the
// form the first verifyContract returned too.

const problems = (found: { problems: string[] }[]) => found.flatMap((v) => v.problems);

describe('verifyContract finds a planted bug', () => {
  it('a route that throws on every valid request: a 500 the route does not declare', async () => {
    const { app } = testApp();
    app.addRoutes(
      post('/widgets', { body: z.object({ name: z.string() }) }, () => {
        throw new Error('planted: the handler always fails');
      }),
      // Declared by the route itself: not a violation.
      get('/upstream', { errors: [503] }, () => {
        throw serviceUnavailable('the upstream is down');
      }),
    );
    const found = await verifyContract(app, { runs: 3 });
    expect(new Set(found.map((v) => `${v.operation} ${v.status}`))).toEqual(
      new Set(['POST /widgets 500']),
    );
    expect(problems(found)).toContainEqual(
      expect.stringMatching(/^server error 500, which the route does not declare/),
    );
  });

  it('a route that refuses valid values its document accepts: valid request refused', async () => {
    const { app } = testApp();
    app.addRoutes(
      post(
        '/signups',
        {
          body: z.object({
            email: z.email(),
            code: z.string().regex(/^[A-Z]{3}-\d{2}$/),
            seats: z.number().int().multipleOf(5).min(5).max(50),
          }),
          responses: { 201: z.object({ seats: z.number() }) },
        },
        (c) => {
          // Planted: a stricter rule than the document states.
          if (c.body.seats > 20) throw unprocessable('too many seats');
          return { seats: c.body.seats };
        },
      ),
    );
    const found = await verifyContract(app, { runs: 10, invalid: false });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.status === 422)).toBe(true);
    // Every refusal is the planted one: no generated value broke the pattern, format or step.
    for (const p of problems(found))
      expect(p).toMatch(/^valid request refused: 422: .*too many seats/);
  });

  it('a success answer that a made-up id never reaches: ids from the create feed the read', async () => {
    const { app } = testApp();
    const orders = new Map<string, number>();
    const Order = z.object({ id: z.string(), total: z.number() });
    app.addRoutes(
      post('/orders', { body: z.object({ total: z.number() }), responses: { 201: Order } }, (c) => {
        const id = `o${orders.size + 1}`;
        orders.set(id, c.body.total);
        return { id, total: c.body.total };
      }),
      get('/orders/:id', { responses: { 200: Order }, errors: [404] }, (c) => {
        const total = orders.get(c.params.id);
        if (total === undefined) throw notFound('no such order');
        // Planted: the total goes out as text.
        return { id: c.params.id, total: String(total) } as never;
      }),
    );
    const found = await verifyContract(app, { runs: 3, invalid: false });
    expect(new Set(found.map((v) => `${v.operation} ${v.status}`))).toEqual(
      new Set(['GET /orders/{id} 500', 'HEAD /orders/{id} 500']),
    );
    // The framework refuses to send a body its schema refuses: a 500 the route does not declare.
    expect(problems(found)[0]).toMatch(/^server error 500, which the route does not declare/);
  });

  it('a lookup that answers 404 for what was just created: valid request refused', async () => {
    const { app } = testApp();
    const slugs = new Set<string>();
    const Article = z.object({ article: z.object({ slug: z.string(), title: z.string() }) });
    app.addRoutes(
      post(
        '/articles',
        { body: z.object({ title: z.string().min(1) }), responses: { 201: Article } },
        (c) => {
          const slug = `a-${slugs.size}`;
          slugs.add(slug);
          return { article: { slug, title: c.body.title } };
        },
      ),
      // Planted: looks the slug up upper-cased, so it never finds one.
      get('/articles/:slug', { responses: { 200: Article }, errors: [404] }, (c) => {
        if (!slugs.has(c.params.slug.toUpperCase())) throw notFound('no such article');
        return { article: { slug: c.params.slug, title: 't' } };
      }),
      del('/articles/:slug', { errors: [404] }, (c) => {
        if (!slugs.delete(c.params.slug)) throw notFound('no such article');
        return c.noContent();
      }),
    );
    const found = await verifyContract(app, { runs: 2, invalid: false });
    expect(new Set(found.map((v) => `${v.operation} ${v.status}`))).toEqual(
      new Set(['GET /articles/{slug} 404', 'HEAD /articles/{slug} 404']),
    );
    expect(problems(found)).toContainEqual(
      expect.stringMatching(/^valid request refused: 404: .*no such article/),
    );
  });

  it('a bug behind a name no response returns, reached with a fixture', async () => {
    const { app } = testApp();
    const Profile = z.object({ username: z.string(), following: z.boolean() });
    app.addRoutes(
      get('/profiles/:username', { responses: { 200: Profile }, errors: [404] }, (c) => {
        if (c.params.username !== 'jake') throw notFound('no such profile');
        return { username: 'jake', following: 'no' } as never; // planted
      }),
    );
    expect(await verifyContract(app, { runs: 3 })).toEqual([]);
    const found = await verifyContract(app, { runs: 3, fixtures: { username: 'jake' } });
    expect(new Set(found.map((v) => `${v.request.method} ${v.request.url} ${v.status}`))).toEqual(
      new Set(['GET /profiles/jake 500', 'HEAD /profiles/jake 500']),
    );
  });

  it('a bug behind a login, reached by logging in in setup', async () => {
    const { app } = testApp();
    const tokens = new Set<string>();
    const authed = guarded(bearer({ verify: (t) => (tokens.has(t) ? { id: 1 } : undefined) }));
    app.addRoutes(
      post(
        '/login',
        {
          body: z.object({ user: z.string() }),
          responses: { 200: z.object({ token: z.string() }) },
        },
        (c) => {
          tokens.add(`t-${c.body.user}`);
          return { token: `t-${c.body.user}` };
        },
      ),
      authed.get('/user', { responses: { 200: z.object({ id: z.string() }) } }, (c) => ({
        id: c.user.id as never, // planted: a number where a string is documented
      })),
    );
    expect(await verifyContract(app, { runs: 2, invalid: false })).toEqual([]);
    const found = await verifyContract(app, {
      runs: 2,
      invalid: false,
      setup: async (api) => {
        const res = await api.inject({ method: 'POST', url: '/login', payload: { user: 'jake' } });
        api.headers.authorization = `Bearer ${(res.json() as { token: string }).token}`;
      },
    });
    expect(found.map((v) => `${v.operation} ${v.status}`)).toEqual([
      'GET /user 500',
      'GET /user 500',
      'HEAD /user 500',
      'HEAD /user 500',
    ]);
  });
});
