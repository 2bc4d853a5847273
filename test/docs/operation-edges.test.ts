import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeMiddleware } from '../../src/extend/index.js';
import { App, get, head, post } from '../../src/index.js';

// One operation at its edges: keys only for what the route sets, request bodies and HEAD,
// responses in status order with the framework's own, and what security makes a route answer.

function app(docs: Record<string, unknown> = {}) {
  return new App({ serviceName: 'ops', env: 'development', docs } as never);
}

interface Node {
  name: string;
  next?: Node | undefined;
}
/** A recursive schema without an id: it becomes a component named after its route part. */
const node = (): z.ZodType<Node> => {
  const n: z.ZodType<Node> = z.object({
    name: z.string(),
    get next() {
      return n.optional();
    },
  });
  return n;
};

describe('an operation', () => {
  it('has only the keys its route sets', async () => {
    const a = app();
    a.addRoutes(
      post('/bare', () => 'x'),
      post(
        '/full',
        {
          summary: 'S',
          description: 'D',
          tags: ['t'],
          deprecated: true,
          body: z.object({ a: z.string() }).optional(),
          examples: { body: { a: 'x' } },
        },
        () => 'y',
      ),
    );
    const doc = await a.openapi();
    const bare = doc.paths['/bare']?.post;
    expect(Object.keys(bare!)).toEqual(['operationId', 'responses']);
    const full = doc.paths['/full']?.post;
    expect(Object.keys(full!)).toEqual([
      'operationId',
      'summary',
      'description',
      'tags',
      'deprecated',
      'requestBody',
      'responses',
    ]);
    expect(full).toMatchObject({ deprecated: true, tags: ['t'] });
    expect(full?.requestBody?.required).toBe(false);
    expect(full?.requestBody?.content['application/json']?.example).toEqual({ a: 'x' });
  });

  it('gives a HEAD no request body and no response bodies', async () => {
    const a = app();
    a.addRoutes(
      get(
        '/g',
        { body: z.object({ q: z.string() }), responses: { 200: z.object({ ok: z.boolean() }) } },
        () => ({ ok: true }),
      ),
      head('/h', { responses: { 200: z.object({ n: z.number() }) } }, () => ({ n: 1 })),
    );
    const doc = await a.openapi();
    const g = doc.paths['/g']!;
    expect(g.get?.requestBody?.required).toBe(true);
    // No example given: no example key.
    expect(Object.keys(g.get?.requestBody?.content['application/json'] ?? {})).toEqual(['schema']);
    expect(g.head?.requestBody).toBeUndefined();
    expect(g.head?.responses['200']?.content).toBeUndefined();
    expect(doc.paths['/h']?.head?.responses['200']?.content).toBeUndefined();
    expect(doc.paths['/h']?.head?.responses['200']?.description).toBe('OK');
  });

  it('lists responses in status order, with 401 only when some alternative needs credentials', async () => {
    const a = app({ securitySchemes: { jwt: { type: 'http', scheme: 'bearer' } } });
    a.addRoutes(
      get(
        '/mixed',
        {
          security: [{}, { jwt: [] }],
          responses: { 404: z.object({}), 201: z.object({}), 200: z.object({}) },
        },
        () => ({}),
      ),
      get('/optional', { security: [{}] }, () => ({})),
    );
    const doc = await a.openapi();
    const bare = app();
    bare.addRoutes(get('/plain', () => ({})));
    const plain = await bare.openapi();
    expect(Object.keys(doc.paths['/mixed']!.get!.responses)).toEqual([
      '200',
      '201',
      '401',
      '404',
      '500',
      '4XX',
      '5XX',
    ]);
    expect(doc.paths['/mixed']!.get!.security).toEqual([{}, { jwt: [] }]);
    expect(Object.keys(doc.paths['/optional']!.get!.responses)).toEqual([
      '200',
      '204',
      '500',
      '4XX',
      '5XX',
    ]);
    expect('security' in plain.paths['/plain']!.get!).toBe(false);
    expect(plain.paths['/plain']!.get!.responses['4XX']?.description).toBe(
      'Any other client error.',
    );
    expect(plain.paths['/plain']!.get!.responses['5XX']?.description).toBe(
      'Any other server error.',
    );
  });

  it('names the schemes it knows when a route asks for one it does not', async () => {
    const none = app();
    none.addRoutes(get('/x', { security: [{ jwt: [] }] }, () => 'x'));
    await expect(none.openapi()).rejects.toThrow(
      'route GET /x (app): security names the scheme "jwt", which docs.securitySchemes does not declare (declared: none)',
    );
    const two = app({
      securitySchemes: {
        a: { type: 'http', scheme: 'basic' },
        b: { type: 'apiKey', in: 'header', name: 'k' },
      },
    });
    two.addRoutes(get('/x', { security: [{ jwt: [] }] }, () => 'x'));
    await expect(two.openapi()).rejects.toThrow('(declared: a, b)');
  });

  it('names the components of recursive schemas after the route and the part', async () => {
    const a = app();
    const guard = describeMiddleware(
      async function guard(_c, next) {
        return next();
      },
      { responses: { 409: { description: 'Conflict', schema: node() } } },
    );
    a.addRoutes(
      post(
        '/n/:name',
        {
          operationId: 'save node',
          middleware: [guard],
          params: z.object({ name: z.string() }),
          query: z.object({ q: node().optional() }),
          headers: z.object({ h: node().optional() }),
          cookies: z.object({ c: node().optional() }),
          body: node(),
          responses: { 201: node() },
        },
        () => ({ name: 'x' }),
      ),
    );
    const doc = await a.openapi();
    expect(Object.keys(doc.components.schemas).filter((k) => k.startsWith('Save'))).toEqual([
      'SavenodeBody',
      'SavenodeCookiesschema0',
      'SavenodeHeadersschema0',
      'SavenodeMw409',
      'SavenodeQueryschema0',
      'SavenodeResponse201',
    ]);
  });
});
