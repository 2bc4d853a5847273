import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { RouteDef } from '../src/extend/index.js';
import { type Context, get, type Middleware, post, route } from '../src/index.js';

const User = z.object({ id: z.number(), name: z.string(), role: z.enum(['admin', 'user']) });

describe('route handler types', () => {
  it('types c.params from the path when there is no params schema', () => {
    get('/orgs/:org/users/:id', (c) => {
      expectTypeOf(c.params).toEqualTypeOf<{ org: string; id: string }>();
      return null;
    });
  });

  it('types params, query, headers and body from their schemas (output side)', () => {
    post(
      '/users/:id',
      {
        params: z.object({ id: z.coerce.number() }),
        query: z.object({ dry: z.stringbool().optional() }),
        headers: z.object({ 'x-tenant': z.string() }),
        body: z.object({ name: z.string(), age: z.number().default(0) }),
      },
      (c) => {
        expectTypeOf(c.params.id).toEqualTypeOf<number>();
        expectTypeOf(c.query.dry).toEqualTypeOf<boolean | undefined>();
        expectTypeOf(c.headers['x-tenant']).toEqualTypeOf<string>();
        expectTypeOf(c.body).toEqualTypeOf<{ name: string; age: number }>();
        return null;
      },
    );
  });

  it('types the body from a Valibot schema too', () => {
    post('/v', { body: v.object({ n: v.number() }) }, (c) => {
      expectTypeOf(c.body).toEqualTypeOf<{ n: number }>();
      return null;
    });
  });

  it('leaves body unknown without a schema', () => {
    post('/raw', (c) => {
      expectTypeOf(c.body).toEqualTypeOf<unknown>();
      return null;
    });
  });

  it('checks the returned value against the declared success response', () => {
    get('/u', { responses: { 200: User } }, () => ({ id: 1, name: 'a', role: 'admin' }));
    get('/u', { responses: { 200: User } }, async () => ({ id: 1, name: 'a', role: 'user' }));
    // @ts-expect-error a required field is missing
    get('/u', { responses: { 200: User } }, () => ({ id: 1, name: 'a' }));
    // @ts-expect-error a field has the wrong type
    get('/u', { responses: { 200: User } }, async () => ({ id: '1', name: 'a', role: 'user' }));
    // @ts-expect-error an array where an object is declared
    get('/u', { responses: { 200: User } }, () => [1]);
  });

  it('checks literals exactly through c.status() and c.created()', () => {
    get('/u', { responses: { 200: User } }, (c) =>
      c.status(200, { id: 1, name: 'a', role: 'admin' }),
    );
    get('/u', { responses: { 200: User } }, (c) => {
      // @ts-expect-error 'root' is not one of the declared roles
      return c.status(200, { id: 1, name: 'a', role: 'root' });
    });
    post('/u', { responses: { 201: User } }, (c) => c.created({ id: 1, name: 'a', role: 'user' }));
    // @ts-expect-error 201 is not declared for this route
    get('/u', { responses: { 200: User } }, (c) => c.created({ id: 1, name: 'a', role: 'user' }));
  });

  it('checks a 201 route against its 201 schema and allows anything without responses', () => {
    post('/u', { responses: { 201: User } }, () => ({ id: 1, name: 'a', role: 'user' }));
    // @ts-expect-error missing name
    post('/u', { responses: { 201: User } }, () => ({ id: 1, role: 'user' }));
    get('/free', () => ({ anything: ['goes'] }));
  });

  it('builds routes of any method and middleware of the onion type', () => {
    expectTypeOf(route('PATCH', '/x', () => 1)).toExtend<RouteDef>();
    expectTypeOf(route('PATCH', '/x', () => 1).method).toEqualTypeOf<'PATCH'>();
    const mw: Middleware = async (c, next) => {
      expectTypeOf(c).toEqualTypeOf<Context>();
      return next();
    };
    expectTypeOf(mw).toBeFunction();
  });
});
