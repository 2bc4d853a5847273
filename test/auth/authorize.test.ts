import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authorize, jwt } from '../../src/auth/index.js';
import { middlewareDocsOf } from '../../src/extend/index.js';
import { get, guarded, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { hsToken, SECRET } from './support.js';

const Claims = z.object({ sub: z.string(), role: z.enum(['user', 'admin']) });
const authed = guarded(jwt({ secret: SECRET, claims: Claims }));
const admins = authed.with(authorize((user) => user.role === 'admin'));

async function as(role: 'user' | 'admin') {
  return { authorization: `Bearer ${await hsToken({ sub: `${role}-1`, role })}` };
}

describe('authorize()', () => {
  it('answers 403 problem+json when the check is false, and runs the handler when true', async () => {
    const { app } = testApp();
    app.addRoutes(admins.del('/users/:id', (c) => ({ deletedBy: c.user.sub, id: c.params.id })));

    const denied = await app.inject({
      method: 'DELETE',
      url: '/users/7',
      headers: await as('user'),
    });
    const allowed = await app.inject({
      method: 'DELETE',
      url: '/users/7',
      headers: await as('admin'),
    });
    const anonymous = await app.inject({ method: 'DELETE', url: '/users/7' });

    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(allowed.json()).toEqual({ deletedBy: 'admin-1', id: '7' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('declares its 403', () => {
    expect(middlewareDocsOf(authorize(() => true))?.responses).toHaveProperty('403');
  });
});

describe('guards on groups and routes', () => {
  it('mixes public and guarded routes under one prefix without repeating anything', async () => {
    const { app } = testApp();
    app.group('/articles').addRoutes(
      get('/', () => [{ title: 'public' }]),
      authed.post('/', (c) => c.created({ author: c.user.sub })),
    );

    expect((await app.inject('/articles')).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/articles' })).statusCode).toBe(401);
    const made = await app.inject({ method: 'POST', url: '/articles', headers: await as('user') });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toEqual({ author: 'user-1' });
  });

  it('runs a guard once when the group and the route both carry it', async () => {
    let runs = 0;
    const counted = guarded(Object.assign(jwt({ secret: SECRET }), {}), async (_c, next) => {
      runs++;
      return next();
    });
    const { app } = testApp();
    app
      .group('/api', ...counted.middleware)
      .addRoutes(counted.get('/me', (c) => ({ sub: c.user.sub })));

    const res = await app.inject({ url: '/api/me', headers: await as('user') });
    expect(res.json()).toEqual({ sub: 'user-1' });
    expect(runs).toBe(1);
  });

  it('guards every route of a group, plain builders included', async () => {
    const { app } = testApp();
    app.group('/admin', ...admins.middleware).addRoutes(post('/jobs', () => ({ ok: true })));

    expect((await app.inject({ method: 'POST', url: '/admin/jobs' })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'POST', url: '/admin/jobs', headers: await as('user') }))
        .statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: '/admin/jobs', headers: await as('admin') }))
        .statusCode,
    ).toBe(200);
  });

  it('puts the guard outside the route’s own middleware', async () => {
    const order: string[] = [];
    const { app } = testApp();
    app.addRoutes(
      authed.get(
        '/order',
        {
          middleware: [
            async (c, next) => {
              order.push(`route sees ${String((c.user as { sub?: string } | undefined)?.sub)}`);
              return next();
            },
          ],
        },
        () => ({}),
      ),
    );

    await app.inject({ url: '/order', headers: await as('user') });
    expect(order).toEqual(['route sees user-1']);
  });
});
