import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Api, ApiV1, ApiV2 } from '../../examples/basic/app.js';
import {
  createClient,
  type DataOf,
  type Prefixed,
  type RouteAt,
  type RoutesOf,
} from '../../src/client/index.js';
import type { ProblemDetails } from '../../src/index.js';
import { get } from '../../src/index.js';

const User = z.object({ id: z.number() });

const api = createClient<Api>({ baseUrl: 'http://localhost:3000' });

describe('the typed client', () => {
  it('types data by the 2xx schemas and error as the problem body', async () => {
    const r = await api.get('/api/v1/users/:id', { params: { id: 1 } });
    if (r.error === undefined) {
      expectTypeOf(r.data).toEqualTypeOf<{ id: number; name: string; email: string }>();
    } else {
      expectTypeOf(r.error).toEqualTypeOf<ProblemDetails>();
      expectTypeOf(r.data).toEqualTypeOf<undefined>();
    }
    const created = await api.post('/api/v1/users', { body: { name: 'a', email: 'a@b.c' } });
    expectTypeOf(created.data).toEqualTypeOf<
      { id: number; name: string; email: string } | undefined
    >();
    const gone = await api.delete('/api/v1/users/:id', { params: { id: 2 } });
    expectTypeOf(gone.data).toEqualTypeOf<undefined>();
  });

  it('takes optional parts as optional and the banner with no options', async () => {
    await api.get('/api/v1/users');
    await api.get('/api/v1/users', { query: { limit: 5 } });
    await api.get('/');
    expectTypeOf((await api.head('/')).data).toEqualTypeOf<undefined>();
  });

  it('refuses a wrong path, a missing param, a wrong body, a wrong method', async () => {
    // @ts-expect-error no such path
    await api.get('/api/v1/nope');
    // @ts-expect-error the path needs its params
    await api.get('/api/v1/users/:id');
    // @ts-expect-error params lacks id
    await api.get('/api/v1/users/:id', { params: {} });
    // @ts-expect-error the body lacks email
    await api.post('/api/v1/users', { body: { name: 'a' } });
    // @ts-expect-error name must be a string
    await api.post('/api/v1/users', { body: { name: 1, email: 'a@b.c' } });
    // @ts-expect-error the body is required
    await api.post('/api/v1/users');
    // @ts-expect-error there is no PUT route
    await api.put('/api/v1/users/:id', { params: { id: 1 } });
  });

  it('collects the routes of a controller, an array and a tuple into one union', () => {
    type Paths = RoutesOf<Api>['path'];
    expectTypeOf<Paths>().toEqualTypeOf<
      | '/'
      | '/quote'
      | '/me'
      | '/api/v1/users'
      | '/api/v1/users/:id'
      | '/api/v2/users'
      | '/api/v2/users/:id'
    >();
  });

  it('keeps a route’s media type under a prefix, and finds a route by method and path', () => {
    const logo = get('/logo.png', { media: { responses: 'image/png' } }, () => new Uint8Array());
    type Routes = Prefixed<'/static', typeof logo>;
    expectTypeOf<DataOf<RouteAt<Routes, 'GET', '/static/logo.png'>>>().toEqualTypeOf<Blob>();
    expectTypeOf<RouteAt<Api, 'POST', '/api/v1/users'>['path']>().toEqualTypeOf<'/api/v1/users'>();
    expectTypeOf<RouteAt<Api, 'PUT', '/api/v1/users'>>().toBeNever();
    const vnd = get(
      '/v',
      { media: { responses: 'application/vnd.a+json; charset=utf-8' }, responses: { 200: User } },
      () => ({ id: 1 }),
    );
    expectTypeOf<DataOf<typeof vnd>>().toEqualTypeOf<{ id: number }>();
  });

  it('types a client per API version: its routes and the shared ones, no others', async () => {
    const v2 = createClient<ApiV2>({ baseUrl: 'http://localhost:3000' });
    const r = await v2.get('/api/v2/users/:id', { params: { id: 1 } });
    expectTypeOf(r.data).toEqualTypeOf<
      { id: number; displayName: string; email: string } | undefined
    >();
    if (r.data) {
      // @ts-expect-error version 2 renamed name to displayName
      void r.data.name;
    }
    await v2.get('/');
    // @ts-expect-error version 1's routes are not in version 2's client
    await v2.get('/api/v1/users');
    // @ts-expect-error version 2 has no POST /users
    await v2.post('/api/v2/users', { body: { displayName: 'a', email: 'a@b.c' } });
    const v1 = createClient<ApiV1>({ baseUrl: 'http://localhost:3000' });
    // @ts-expect-error version 2's routes are not in version 1's client
    await v1.get('/api/v2/users');
    const one = await v1.get('/api/v1/users/:id', { params: { id: 1 } });
    // @ts-expect-error version 1 has no displayName
    void one.data?.displayName;
  });
});
