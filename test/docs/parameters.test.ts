import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get } from '../../src/index.js';

// Parameters as the document lists them: descriptions and deprecation lifted out of the schema,
// a path pattern kept unless the params schema has its own, and the headers OpenAPI ignores
// refused with a way out.

function app() {
  return new App({ serviceName: 'params', env: 'development' });
}

describe('parameters', () => {
  it('lift description and deprecated out of the schema, and keep a pattern the schema lacks', async () => {
    const a = app();
    a.addRoutes(
      get(
        '/u/:id(^\\d+$)/:slug(^[a-z]+$)',
        {
          params: z.object({ id: z.string(), slug: z.string().regex(/^[a-z-]+$/) }),
          query: z.object({
            q: z.string().describe('What to look for').meta({ deprecated: true }),
            n: z.number().meta({ description: 7, deprecated: 'no' } as never),
          }),
          headers: z.object({ 'x-trace': z.string().optional() }),
        },
        () => 'x',
      ),
    );
    const params = (await a.openapi()).paths['/u/{id}/{slug}']?.get?.parameters;
    expect(params).toStrictEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
      {
        name: 'slug',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^[a-z-]+$' },
      },
      {
        name: 'q',
        in: 'query',
        required: true,
        description: 'What to look for',
        deprecated: true,
        schema: { type: 'string' },
      },
      { name: 'n', in: 'query', required: true, schema: { type: 'number' } },
      { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });

  it('refuse a params property that is not in the path, even beside one that is', async () => {
    const a = app();
    a.addRoutes(
      get('/u/:id', { params: z.object({ id: z.string(), other: z.string() }) }, () => 'x'),
    );
    await expect(a.openapi()).rejects.toThrow(
      'route GET /u/:id (app): the params schema has "other", which is not a parameter of the path',
    );
  });

  it('refuse the headers OpenAPI ignores, saying what to do instead', async () => {
    const cases: [string, string][] = [
      [
        'Authorization',
        "declare a security scheme (docs.securitySchemes or describeMiddleware) and the route's security instead",
      ],
      ['accept', "the request body's media type and the responses say it"],
      ['Content-Type', "the request body's media type and the responses say it"],
    ];
    for (const [header, advice] of cases) {
      const a = app();
      a.addRoutes(get('/h', { headers: z.object({ [header]: z.string() }) }, () => 'x'));
      await expect(a.openapi()).rejects.toThrow(
        `route GET /h (app): the headers schema has "${header}", which OpenAPI does not document as a parameter; ${advice}, and read it from c.request.headers`,
      );
    }
    // Only in headers: a query parameter named authorization is an ordinary parameter.
    const q = app();
    q.addRoutes(get('/q', { query: z.object({ authorization: z.string() }) }, () => 'x'));
    expect((await q.openapi()).paths['/q']?.get?.parameters?.[0]?.name).toBe('authorization');
  });
});
