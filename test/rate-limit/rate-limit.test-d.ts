import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { jwt } from '../../src/auth/index.js';
import type { UserOf } from '../../src/extend/index.js';
import { guarded, rateLimit } from '../../src/index.js';

const Claims = z.object({ sub: z.string(), plan: z.enum(['free', 'pro']) });
type Claims = z.infer<typeof Claims>;
const auth = jwt({ secret: 'x', claims: Claims });

describe('the c.user a rate-limit key sees', () => {
  it('is the guard’s user inside guarded(guard).with(…)', () => {
    guarded(auth).with(
      rateLimit({
        max: 10,
        windowMs: 1000,
        key: (c) => {
          expectTypeOf(c.user).toEqualTypeOf<Claims>();
          return c.user.sub;
        },
      }),
    );
    guarded(auth).with(
      rateLimit({
        max: 10,
        windowMs: 1000,
        // @ts-expect-error: no such claim
        key: (c) => c.user.email,
      }),
    );
  });

  it('is the guard’s user in guarded(guard, …) too', () => {
    guarded(auth, rateLimit({ max: 1, windowMs: 1, key: (c) => `${c.user.plan}:${c.user.sub}` }));
    // @ts-expect-error: no such claim
    guarded(auth, rateLimit({ max: 1, windowMs: 1, key: (c) => c.user.email }));
  });

  it('is named with rateLimit<UserOf<typeof guard>> where no builder carries it', () => {
    rateLimit<UserOf<typeof auth>>({ max: 1, windowMs: 1, key: (c) => c.user.sub });
    // @ts-expect-error: no such claim
    rateLimit<UserOf<typeof auth>>({ max: 1, windowMs: 1, key: (c) => c.user.email });
  });

  it('is unknown without a guard, and the default key needs none', () => {
    rateLimit({
      max: 1,
      windowMs: 1,
      key: (c) => {
        expectTypeOf(c.user).toEqualTypeOf<unknown>();
        return c.request.ip;
      },
    });
    guarded(auth).with(rateLimit({ max: 1, windowMs: 1 }));
  });
});
