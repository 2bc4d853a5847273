import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, type Schema } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** A schema that validates asynchronously, as some Standard Schema libraries do. */
function asyncSchema<T>(inner: z.ZodType<T>): Schema {
  return {
    '~standard': {
      version: 1,
      vendor: 'test-async',
      validate: async (value: unknown): Promise<StandardSchemaV1.Result<unknown>> => {
        const r = inner.safeParse(value);
        return r.success
          ? { value: r.data }
          : {
              issues: r.error.issues.map((i) => ({
                message: i.message,
                path: i.path as PropertyKey[],
              })),
            };
      },
    },
  } as Schema;
}

/**
 * A schema that is a function carrying `~standard`, as ArkType's types are, with a JSON Schema
 * side like ArkType's.
 */
function callableSchema<T>(inner: z.ZodType<T>): Schema {
  const json = z.toJSONSchema(inner);
  const schema = (value: unknown) => inner.parse(value);
  return Object.assign(schema, {
    '~standard': {
      version: 1,
      vendor: 'test-callable',
      validate: (value: unknown): StandardSchemaV1.Result<unknown> => {
        const r = inner.safeParse(value);
        return r.success
          ? { value: r.data }
          : {
              issues: r.error.issues.map((i) => ({
                message: i.message,
                path: i.path as PropertyKey[],
              })),
            };
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  }) as unknown as Schema;
}

describe('request validation', () => {
  it('validates the parts after an asynchronous one, and reports all their issues', async () => {
    const { app } = testApp();
    app.addRoutes(
      get(
        '/items/:id',
        {
          hidden: true, // the async test schema has no JSON Schema side for the document
          params: asyncSchema(z.object({ id: z.coerce.number() })),
          query: z.object({ limit: z.coerce.number().max(10) }),
          headers: z.object({ 'x-tenant': z.string().min(2) }),
        },
        (c) => ({ params: c.params, query: c.query }),
      ),
    );
    const bad = await app.inject({ url: '/items/x?limit=50', headers: { 'x-tenant': 'a' } });
    expect(bad.statusCode).toBe(422);
    const paths = (bad.json() as { errors: { path: string }[] }).errors.map((e) => e.path);
    expect(paths).toEqual(['params.id', 'query.limit', 'headers.x-tenant']);

    const good = await app.inject({ url: '/items/7?limit=5', headers: { 'x-tenant': 'acme' } });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ params: { id: 7 }, query: { limit: 5 } });
  });

  it('validates headers at run time and gives the handler the parsed value', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/h', { headers: z.object({ 'x-count': z.coerce.number().int() }) }, (c) => ({
        count: c.headers['x-count'],
      })),
    );
    expect((await app.inject({ url: '/h', headers: { 'x-count': 'many' } })).statusCode).toBe(422);
    const ok = await app.inject({ url: '/h', headers: { 'x-count': '3' } });
    expect(ok.json()).toEqual({ count: 3 });
  });

  it('names the route when the document meets a schema that is not a Standard Schema value', async () => {
    const { app } = testApp();
    app.addRoutes(get('/bad', { query: { type: 'object' } as unknown as Schema }, () => ({})));
    await expect(app.ready()).rejects.toThrow(
      /route GET \/bad \(app\): the query schema is not a Standard Schema value/,
    );
  });

  it('refuses at registration a schema option that is not a Standard Schema value', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/bad', { hidden: true, query: { type: 'object' } as unknown as Schema }, () => ({})),
    );
    await expect(app.ready()).rejects.toThrow(
      /route GET \/bad: the query schema is not a Standard Schema value/,
    );
  });

  it('accepts a schema that is a function, as ArkType types are, and validates with it', async () => {
    const { app } = testApp();
    app.addRoutes(
      get(
        '/n',
        { query: callableSchema(z.object({ n: z.coerce.number().int() })) },
        (c) => c.query,
      ),
    );
    expect((await app.inject('/n?n=3')).json()).toEqual({ n: 3 });
    const bad = await app.inject('/n?n=x');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: { path: string }) => e.path)).toEqual(['query.n']);
  });
});
