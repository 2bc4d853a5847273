// Each test here is one place where the document and the server used to disagree.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApi } from '../../src/docs/openapi.js';
import {
  describeMiddleware,
  get,
  head,
  notFound,
  PROBLEM_CONTENT_TYPE,
  post,
  put,
  type RouteDef,
  tooManyRequests,
  unauthorized,
} from '../../src/index.js';
import { testApp } from '../app/helpers.js';

const problemRef = { $ref: '#/components/schemas/Problem' };

async function docOf(...routes: RouteDef[]) {
  const { app } = testApp();
  app.addRoutes(...routes);
  return { app, doc: await app.openapi() };
}

const requireKey = describeMiddleware(
  async function requireKey(c, next) {
    if (c.request.headers['x-api-key'] !== 'k') throw unauthorized('no key');
    return next();
  },
  {
    responses: { 401: { description: 'No valid API key' } },
    security: [{ apiKey: [] }],
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
  },
);

const limit = describeMiddleware(async (_c, next) => next(), {
  responses: {
    429: {
      headers: {
        'RateLimit-Limit': { description: 'Requests allowed per window.' },
        'RateLimit-Remaining': { schema: { type: 'integer' } },
      },
    },
  },
});

describe('the document agrees with the server', () => {
  it('documents 204 for a route that declares no success and returns nothing, as it answers', async () => {
    const { app, doc } = await docOf(post('/touch', () => undefined));
    const res = await app.inject({ method: 'POST', url: '/touch' });
    expect(res.statusCode).toBe(204);
    expect(doc.paths['/touch']?.post?.responses['204']).toEqual({ description: 'No Content' });
  });

  it('documents a head() route without bodies, 204 included', async () => {
    const { app, doc } = await docOf(head('/exists', () => undefined));
    expect((await app.inject({ method: 'HEAD', url: '/exists' })).statusCode).toBe(204);
    const responses = doc.paths['/exists']?.head?.responses ?? {};
    expect(responses['204']).toEqual({ description: 'No Content' });
    expect(Object.values(responses).filter((r) => r.content)).toEqual([]);
  });

  it('starts with z.undefined(), z.void() or z.null() for a 204, documented without content', async () => {
    const { app, doc } = await docOf(
      put('/a', { responses: { 204: z.undefined() } }, (c) => c.noContent()),
      put('/b', { responses: { 204: z.void() } }, (c) => c.noContent()),
      put('/c', { responses: { 204: z.null() } }, (c) => c.noContent()),
    );
    for (const path of ['/a', '/b', '/c']) {
      expect(doc.paths[path]?.put?.responses['204']).toEqual({ description: 'No Content' });
      expect((await app.inject({ method: 'PUT', url: path })).statusCode).toBe(204);
    }
  });

  it('documents 400, 413 and 415 where the engine parses a body, 422 where the route validates, 500 everywhere', async () => {
    const { app, doc } = await docOf(
      post('/things', { body: z.object({ n: z.number() }) }, () => ({})),
      get('/plain', () => ({})),
    );
    const postOp = doc.paths['/things']?.post?.responses ?? {};
    for (const status of ['400', '413', '415', '422', '500']) {
      expect(postOp[status]?.content).toEqual({ [PROBLEM_CONTENT_TYPE]: { schema: problemRef } });
    }
    expect(Object.keys(doc.paths['/plain']?.get?.responses ?? {})).toEqual([
      '200',
      '204',
      '500',
      '4XX',
      '5XX',
    ]);
    const malformed = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"n":',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('covers an error a handler throws undeclared with a 4XX problem response', async () => {
    const { app, doc } = await docOf(
      get('/users/:id', () => {
        throw notFound('no such user');
      }),
    );
    const res = await app.inject('/users/1');
    expect(res.statusCode).toBe(404);
    expect(doc.paths['/users/{id}']?.get?.responses['404']).toBeUndefined();
    expect(doc.paths['/users/{id}']?.get?.responses['4XX']?.content).toEqual({
      [PROBLEM_CONTENT_TYPE]: { schema: problemRef },
    });
  });

  it("adds a group middleware's responses, security and scheme to every operation under it, and only there", async () => {
    const { app } = testApp();
    app.group('/admin', requireKey).addRoutes(get('/stats', () => ({})));
    app.addRoutes(get('/open', () => ({})));
    const doc = await app.openapi();
    const stats = doc.paths['/admin/stats']?.get;
    expect(stats?.security).toEqual([{ apiKey: [] }]);
    expect(stats?.responses['401']).toEqual({
      description: 'No valid API key',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: problemRef } },
    });
    expect(doc.components.securitySchemes?.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    expect(doc.paths['/open']?.get?.security).toEqual([]);
    expect(doc.paths['/open']?.get?.responses['401']).toBeUndefined();
  });

  it('adds app middleware docs to every route but the builtin ones, and route middleware docs to its route', async () => {
    const { app } = testApp();
    app.use(limit);
    app.addRoutes(get('/mine', { middleware: [requireKey] }, () => ({})));
    const doc = await app.openapi();
    const mine = doc.paths['/mine']?.get;
    expect(mine?.security).toEqual([{ apiKey: [] }]);
    expect(mine?.responses['429']?.headers).toEqual({
      'Retry-After': {
        description: 'Seconds to wait before retrying.',
        schema: { type: 'string' },
      },
      'RateLimit-Limit': {
        description: 'Requests allowed per window.',
        schema: { type: 'string' },
      },
      'RateLimit-Remaining': { schema: { type: 'integer' } },
    });
    expect(doc.paths['/health']?.get?.responses['429']).toBeUndefined();
  });

  it('requires every middleware and the route: security requirements combine as all of them', async () => {
    const other = describeMiddleware(async (_c, next) => next(), {
      security: [{ bearer: [] }, { cookie: [] }],
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
      },
    });
    const { app } = testApp();
    app.group('/x', requireKey, other).addRoutes(get('/y', () => ({})));
    const doc = await app.openapi();
    expect(doc.paths['/x/y']?.get?.security).toEqual([
      { apiKey: [], bearer: [] },
      { apiKey: [], cookie: [] },
    ]);
  });

  it('refuses to start when two middleware declare one scheme name differently, naming both', async () => {
    const clash = describeMiddleware(
      async function cookieAuth(_c, next) {
        return next();
      },
      { securitySchemes: { apiKey: { type: 'apiKey', in: 'cookie', name: 'k' } } },
    );
    const { app } = testApp();
    app.group('/a', requireKey).addRoutes(get('/1', () => ({})));
    app.group('/b', clash).addRoutes(get('/2', () => ({})));
    await expect(app.ready()).rejects.toThrow(
      'the security scheme "apiKey" is declared differently by middleware "requireKey" (apiKey in header "x-api-key") and by middleware "cookieAuth" (apiKey in cookie "k")',
    );
  });

  it('documents a HEAD operation for every GET route, without bodies', async () => {
    const { doc } = await docOf(
      get('/items', { responses: { 200: z.array(z.string()) } }, () => []),
    );
    const h = doc.paths['/items']?.head;
    expect(h?.operationId).toBe('headItems');
    expect(Object.values(h?.responses ?? {}).filter((r) => r.content)).toEqual([]);
  });

  it('documents an optional path parameter as two paths, the wildcard as a parameter, a regex as pattern', async () => {
    const { doc } = await docOf(
      get('/files/:name?', () => ({})),
      get('/static/*', () => ({})),
      get('/orders/:id(^\\d+$)', () => ({})),
    );
    expect(doc.paths['/files/{name}']?.get?.operationId).toBe('getFilesByName');
    expect(doc.paths['/files']?.get?.operationId).toBe('getFilesByNameWithoutName');
    expect(doc.paths['/files']?.get?.parameters).toBeUndefined();
    expect(doc.paths['/static/{wildcard}']?.get?.parameters).toEqual([
      { name: 'wildcard', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(doc.paths['/orders/{id}']?.get?.parameters?.[0]?.schema).toEqual({
      type: 'string',
      pattern: '^\\d+$',
    });
  });

  it.each(['authorization', 'Accept', 'content-type'])(
    'refuses a %s header in a headers schema, pointing elsewhere',
    async (name) => {
      const { app } = testApp();
      app.addRoutes(get('/h', { headers: z.object({ [name]: z.string() }) }, () => ({})));
      await expect(app.ready()).rejects.toThrow(`the headers schema has "${name}"`);
    },
  );

  it('emits no component for an id’d params schema nothing refers to', async () => {
    const Params = z.object({ id: z.string() }).meta({ id: 'UserParams' });
    const { doc } = await docOf(get('/users/:id', { params: Params }, () => ({})));
    expect(doc.components.schemas.UserParams).toBeUndefined();
  });

  it('numbers automatic operationIds that collide, in registration order', async () => {
    const { doc } = await docOf(
      get('/users-list', () => []),
      get('/users/list', () => []),
    );
    expect(doc.paths['/users-list']?.get?.operationId).toBe('getUsersList');
    expect(doc.paths['/users/list']?.get?.operationId).toBe('getUsersList2');
  });

  it('documents 401 on an operation that requires credentials, and says outright that others need none', async () => {
    const { app } = testApp({
      docs: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    });
    app.addRoutes(
      get('/private', { security: [{ bearer: [] }] }, () => ({})),
      get('/public', () => ({})),
    );
    const doc = await app.openapi();
    expect(doc.paths['/private']?.get?.responses['401']?.content).toEqual({
      [PROBLEM_CONTENT_TYPE]: { schema: problemRef },
    });
    expect(doc.paths['/public']?.get?.security).toEqual([]);
    expect(doc.paths['/public']?.get?.responses['401']).toBeUndefined();
  });

  it('puts docs.security at the root, where operations without their own inherit it', async () => {
    const { app } = testApp({
      docs: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        security: [{ bearer: [] }],
      },
    });
    app.addRoutes(
      get('/mine', () => ({})),
      get('/open', { security: [] }, () => ({})),
    );
    const doc = await app.openapi();
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/mine']?.get?.security).toBeUndefined();
    expect(doc.paths['/mine']?.get?.responses['401']).toBeDefined();
    expect(doc.paths['/open']?.get?.security).toEqual([]);
    expect(doc.paths['/health']?.get?.security).toEqual([]);
    expect(doc.paths['/health']?.get?.responses['401']).toBeUndefined();
    const bad = testApp({ docs: { security: [{ nope: [] }] } }).app;
    await expect(bad.ready()).rejects.toThrow('docs.security: security names the scheme "nope"');
  });

  it('documents Location on 201 and Retry-After on a declared 429', async () => {
    const { doc } = await docOf(
      post('/jobs', { responses: { 201: z.object({ id: z.string() }) }, errors: [429] }, () => {
        throw tooManyRequests('slow down');
      }),
    );
    const r = doc.paths['/jobs']?.post?.responses ?? {};
    expect(Object.keys(r['201']?.headers ?? {})).toEqual(['Location']);
    expect(Object.keys(r['429']?.headers ?? {})).toEqual(['Retry-After']);
  });

  it('keeps examples from schema metadata and from the route option', async () => {
    const { doc } = await docOf(
      post(
        '/notes',
        {
          body: z.object({ text: z.string() }).meta({ examples: [{ text: 'hi' }] }),
          responses: { 201: z.object({ id: z.number() }) },
          examples: { body: { text: 'hello' }, responses: { 201: { id: 7 } } },
        },
        () => ({ id: 1 }),
      ),
    );
    const op = doc.paths['/notes']?.post;
    expect(op?.requestBody?.content['application/json']).toMatchObject({
      schema: { examples: [{ text: 'hi' }] },
      example: { text: 'hello' },
    });
    expect(op?.responses['201']?.content?.['application/json']?.example).toEqual({ id: 7 });
  });

  it('documents the media types a route declares for its body and its responses', async () => {
    const { doc } = await docOf(
      get(
        '/report',
        { media: { responses: 'text/plain' }, responses: { 200: z.string() } },
        () => 'x',
      ),
      get('/blob', { media: { responses: 'application/octet-stream' } }, () => Buffer.from('x')),
      post(
        '/upload',
        { media: { body: 'multipart/form-data' }, body: z.object({ file: z.string() }) },
        () => undefined,
      ),
    );
    expect(doc.paths['/report']?.get?.responses['200']?.content).toEqual({
      'text/plain': { schema: { type: 'string' } },
    });
    expect(doc.paths['/blob']?.get?.responses['200']?.content).toEqual({
      'application/octet-stream': {},
    });
    expect(Object.keys(doc.paths['/upload']?.post?.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
  });

  it('uses the error body the app gives instead of problem+json for every error response', async () => {
    const { app } = testApp();
    app.addRoutes(get('/e', () => ({})));
    await app.ready();
    const doc = buildOpenApi(app.config, app.routes, {
      errorResponse: { contentType: 'application/json', schema: z.object({ message: z.string() }) },
    });
    const r = doc.paths['/e']?.get?.responses ?? {};
    for (const key of ['500', '4XX', '5XX']) {
      expect(r[key]?.content).toEqual({
        'application/json': {
          schema: {
            type: 'object',
            properties: { message: { type: 'string' } },
            required: ['message'],
            additionalProperties: false,
          },
        },
      });
    }
    expect(doc.components.schemas.Problem).toBeUndefined();
  });
});
