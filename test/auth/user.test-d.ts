import type { JWTPayload } from 'jose';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { apiKey, authorize, bearer, jwt } from '../../src/auth/index.js';
import type { UserOf } from '../../src/extend/index.js';
import { get, guarded } from '../../src/index.js';

const Claims = z.object({ sub: z.string(), role: z.enum(['user', 'admin']) });
type Claims = z.infer<typeof Claims>;
const secret = 'x';

describe('the type of c.user', () => {
  it('is the claims schema’s output under a jwt() guard', () => {
    const authed = guarded(jwt({ secret, claims: Claims }));
    authed.get('/me', (c) => {
      expectTypeOf(c.user).toEqualTypeOf<Claims>();
      // @ts-expect-error: no such claim in the schema
      c.user.email;
      return { sub: c.user.sub };
    });
    authed.post('/items/:id', { body: z.object({ n: z.number() }) }, (c) => {
      expectTypeOf(c.user.role).toEqualTypeOf<'user' | 'admin'>();
      expectTypeOf(c.params.id).toEqualTypeOf<string>();
      expectTypeOf(c.body.n).toEqualTypeOf<number>();
      return {};
    });
  });

  it('is possibly undefined under an optional guard', () => {
    const viewer = guarded(jwt({ secret, claims: Claims, optional: true }));
    viewer.get('/feed', (c) => {
      expectTypeOf(c.user).toEqualTypeOf<Claims | undefined>();
      // @ts-expect-error: the user may be absent
      c.user.sub;
      return { sub: c.user?.sub ?? null };
    });
  });

  it('is the JWT payload without a claims schema', () => {
    guarded(jwt({ jwksUrl: 'https://example.test/jwks' })).get('/me', (c) => {
      expectTypeOf(c.user).toEqualTypeOf<JWTPayload>();
      return {};
    });
  });

  it('is what verify returns for bearer() and apiKey()', () => {
    const sessions = new Map<string, { id: number }>();
    guarded(bearer({ verify: (token) => sessions.get(token) })).get('/s', (c) => {
      expectTypeOf(c.user).toEqualTypeOf<{ id: number }>();
      // @ts-expect-error: not a property of the session
      c.user.name;
      return {};
    });
    guarded(
      apiKey({ verify: async (key) => (key ? { service: 'a' } : undefined), optional: true }),
    ).get('/k', (c) => {
      expectTypeOf(c.user).toEqualTypeOf<{ service: string } | undefined>();
      return {};
    });
  });

  it('keeps its type through with(authorize(…)), whose check sees the user typed', () => {
    const admins = guarded(jwt({ secret, claims: Claims })).with(
      authorize((user) => {
        expectTypeOf(user).toEqualTypeOf<Claims>();
        // @ts-expect-error: no such claim
        return user.isAdmin === true;
      }),
    );
    admins.del('/users/:id', (c) => {
      expectTypeOf(c.user).toEqualTypeOf<Claims>();
      return undefined;
    });
  });

  it('is unknown on a route built without a guard, so it cannot be used unchecked', () => {
    get('/plain', (c) => {
      expectTypeOf(c.user).toBeUnknown();
      // @ts-expect-error: unknown has no properties
      c.user.sub;
      return {};
    });
  });

  it('can be named from a guard with UserOf', () => {
    const auth = jwt({ secret, claims: Claims });
    expectTypeOf<UserOf<typeof auth>>().toEqualTypeOf<Claims>();
    expectTypeOf<UserOf<ReturnType<typeof get>>>().toBeUnknown();
  });
});
