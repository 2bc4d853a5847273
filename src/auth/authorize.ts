/**
 * `authorize()`: 403 unless a check on the user passes.
 * @module
 */
import { forbidden } from '../errors/index.js';
import type { Context } from '../routing/context.js';
import type { Guard } from '../routing/guarded.js';
import { describeMiddleware } from '../routing/middleware-docs.js';

/**
 * A guard that answers 403 problem+json unless `check(c.user, c)` is true. Put it inside a guard
 * that sets the user: `guarded(jwt(…)).with(authorize((user) => user.role === 'admin'))`, where
 * `user` is typed, or `authorize<Claims>(…)` on a group.
 * @example const admins = authed.with(authorize((user) => user.roles.includes('admin')));
 */
export function authorize<U>(
  check: (user: U, c: Context) => boolean | Promise<boolean>,
  message = 'You are not allowed to do this.',
): Guard<U> {
  if (typeof check !== 'function') {
    throw new TypeError(`authorize() takes a check function, got ${typeof check}`);
  }
  return describeMiddleware(
    async function authorizeGuard(c, next) {
      if ((await check(c.user as U, c)) !== true) throw forbidden(message);
      return next();
    },
    {
      responses: {
        403: { description: 'The credentials do not allow this', codes: ['FORBIDDEN'] },
      },
    },
  );
}
