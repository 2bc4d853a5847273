import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AppOptions, get, post } from '../../src/index.js';
import type { RouteDef } from '../../src/routing/types.js';
import { testApp } from '../app/helpers.js';

async function startupError(routes: RouteDef[], options: Partial<AppOptions> = {}) {
  const { app } = testApp(options);
  app.addRoutes(...routes);
  return app.ready().then(
    () => undefined,
    (err: Error) => err.message,
  );
}

describe('a document that cannot be built stops the app at startup', () => {
  it('names the route and the part when a converter cannot express a schema (z.date())', async () => {
    const message = await startupError([
      post('/events', { body: z.object({ at: z.date() }) }, () => ({})),
    ]);
    expect(message).toBe(
      'route POST /events (app): the body schema cannot be expressed as JSON Schema: Date cannot be represented in JSON Schema',
    );
  });

  it('names the route and the part when a schema has no JSON Schema side', async () => {
    const message = await startupError([
      get('/items', { query: v.object({ q: v.string() }) }, () => []),
    ]);
    expect(message).toMatch(
      /^route GET \/items \(app\): the query schema \(vendor valibot\) has no JSON Schema side/,
    );
  });

  it('names the status of a response schema it cannot express', async () => {
    const message = await startupError([
      post('/t', { body: z.string().transform((s) => s.length) }, () => ({})),
      get('/t', { responses: { 201: z.string().transform((s) => s.length) } }, () => 'x'),
    ]);
    expect(message).toMatch(
      /^route GET \/t \(app\): the 201 response schema cannot be expressed as JSON Schema: /,
    );
  });

  it('names both routes when two set the same operationId', async () => {
    const message = await startupError([
      get('/users-list', { operationId: 'listUsers' }, () => []),
      get('/users/list', { operationId: 'listUsers' }, () => []),
    ]);
    expect(message).toBe(
      'operationId "listUsers" is used by route GET /users-list (app) and by route GET /users/list (app); set options.operationId on one of them',
    );
  });

  it('names both routes when two different schemas share an id', async () => {
    const A = z.object({ a: z.string() }).meta({ id: 'Thing' });
    const B = z.object({ b: z.number() }).meta({ id: 'Thing' });
    const message = await startupError([
      get('/a', { responses: { 200: A } }, () => ({ a: 'x' })),
      get('/b', { responses: { 200: B } }, () => ({ b: 1 })),
    ]);
    expect(message).toBe(
      'schema id "Thing" names two different schemas: one in route GET /a (app): the 200 response schema, another in route GET /b (app): the 200 response schema; give each its own id',
    );
  });

  it('accepts two schema values with the same id when they describe the same thing', async () => {
    const make = () => z.object({ a: z.string() }).meta({ id: 'Same' });
    const { app } = testApp();
    app.addRoutes(
      get('/a', { responses: { 200: make() } }, () => ({ a: 'x' })),
      get('/b', { responses: { 200: make() } }, () => ({ a: 'y' })),
    );
    const doc = await app.openapi();
    expect(Object.keys(doc.components.schemas)).toEqual(['Problem', 'Same']);
  });

  it('refuses an id that would take the name of the Problem schema', async () => {
    const message = await startupError([
      get(
        '/p',
        { responses: { 200: z.object({ x: z.string() }).meta({ id: 'Problem' }) } },
        () => ({
          x: '',
        }),
      ),
    ]);
    expect(message).toMatch(/schema id "Problem" is needed for .* but already names Keelson/);
  });

  it('names the route that requires an undeclared security scheme', async () => {
    const message = await startupError([get('/me', { security: [{ session: [] }] }, () => ({}))], {
      docs: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    });
    expect(message).toBe(
      'route GET /me (app): security names the scheme "session", which docs.securitySchemes does not declare (declared: bearer)',
    );
  });

  it('names the route that asks an OAuth 2 scheme for a scope no flow declares', async () => {
    const message = await startupError(
      [get('/me', { security: [{ oauth: ['admin'] }] }, () => ({}))],
      {
        docs: {
          securitySchemes: {
            oauth: {
              type: 'oauth2',
              flows: { password: { tokenUrl: '/token', scopes: { read: 'Read' } } },
            },
          },
        },
      },
    );
    expect(message).toMatch(
      /^route GET \/me \(app\): security asks the scheme "oauth" for the scope "admin"/,
    );
  });

  it('names the route whose params schema has a property the path does not', async () => {
    const message = await startupError([
      get('/users/:id', { params: z.object({ id: z.string(), org: z.string() }) }, () => ({})),
    ]);
    expect(message).toBe(
      'route GET /users/:id (app): the params schema has "org", which is not a parameter of the path',
    );
  });

  it('names the route whose query schema is not an object', async () => {
    const message = await startupError([get('/q', { query: z.string() }, () => ({}))]);
    expect(message).toMatch(/^route GET \/q \(app\): the query schema must describe an object/);
  });

  it('names the route that declares an error status outside 400..599', async () => {
    const message = await startupError([get('/e', { errors: [200] }, () => ({}))]);
    expect(message).toBe('route GET /e (app): errors must list statuses in 400..599, got 200');
  });

  it('does not build the document in production until it is asked for', async () => {
    const routes = [post('/events', { body: z.object({ at: z.date() }) }, () => ({}))];
    expect(await startupError(routes, { env: 'production' })).toBeUndefined();
    const { app } = testApp({ env: 'production' });
    app.addRoutes(...routes);
    await expect(app.openapi()).rejects.toThrow(/route POST \/events \(app\): the body schema/);
  });
});
