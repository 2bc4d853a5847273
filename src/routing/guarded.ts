/**
 * Guards and the builders bound to them: how the user a guard sets reaches the handler's type.
 * Routes are built before they are registered, so the type cannot come from a group; it comes
 * from the builder: `guarded(jwt({ claims }))` gives `get`, `post`, … whose `c.user` is typed.
 * @module
 */
import { makeRoute, type RouteBuilder } from './builders.js';
import { assertMiddleware } from './group.js';
import type { HttpMethod, Middleware, RouteDef } from './types.js';

declare const USER: unique symbol;
declare const READS_USER: unique symbol;

/**
 * A middleware that sets `c.user` to a `U` before it calls `next()` (or answers 401/403).
 * `U` is only a type: the guards of `keelson/auth` carry it so `guarded()` can pass it on.
 */
export type Guard<U> = Middleware & { readonly [USER]?: () => U };

/**
 * A middleware that reads `c.user` as a `U` (a `rateLimit` keyed by user): inside
 * `guarded(guard).with(…)` its `U` is inferred from the guard's.
 */
export type UserMiddleware<U> = Middleware & { readonly [READS_USER]?: (user: U) => void };

/** The user type a guard sets: `UserOf<typeof auth>`. */
export type UserOf<G> = G extends Guard<infer U> ? U : unknown;

/** Route builders whose handlers get `c.user: U`, each route wrapped in the guard's middleware. */
export interface GuardedRoutes<U> {
  /** A guarded `GET` route. */
  readonly get: RouteBuilder<U, 'GET'>;
  /** A guarded `POST` route. */
  readonly post: RouteBuilder<U, 'POST'>;
  /** A guarded `PUT` route. */
  readonly put: RouteBuilder<U, 'PUT'>;
  /** A guarded `PATCH` route. */
  readonly patch: RouteBuilder<U, 'PATCH'>;
  /** A guarded `DELETE` route. */
  readonly del: RouteBuilder<U, 'DELETE'>;
  /** A guarded `HEAD` route. */
  readonly head: RouteBuilder<U, 'HEAD'>;
  /** A guarded `OPTIONS` route. */
  readonly options: RouteBuilder<U, 'OPTIONS'>;
  /** The guard and the middleware after it, outermost first: `app.group('/x', ...g.middleware)`. */
  readonly middleware: readonly Middleware[];
  /** The same builders with more middleware inside the guard, e.g. `authorize(…)`; `c.user` keeps its type. */
  with(...middleware: (Middleware | Guard<U> | UserMiddleware<U>)[]): GuardedRoutes<U>;
}

const METHODS = [
  ['get', 'GET'],
  ['post', 'POST'],
  ['put', 'PUT'],
  ['patch', 'PATCH'],
  ['del', 'DELETE'],
  ['head', 'HEAD'],
  ['options', 'OPTIONS'],
] as const satisfies readonly (readonly [keyof GuardedRoutes<unknown>, HttpMethod])[];

function guardedBuilder(method: HttpMethod, middleware: readonly Middleware[]): RouteBuilder {
  return function buildGuardedRoute(path: string, a: unknown, b?: unknown): RouteDef {
    const def = makeRoute(method, path, a, b);
    const own = def.options.middleware ?? [];
    return Object.freeze({
      ...def,
      options: { ...def.options, middleware: [...middleware, ...own] },
    });
  } as RouteBuilder;
}

/**
 * Route builders bound to a guard: every route they build runs inside `guard` (and `middleware`),
 * and its handler sees `c.user` with the guard's type. Use them per route, as a controller's
 * default, or with the same guard on a group: a middleware met twice on one route runs once.
 * @example
 * const authed = guarded(jwt({ secret, claims: z.object({ sub: z.string() }) }));
 * app.addRoutes(get('/articles', list), authed.post('/articles', { body: NewArticle }, (c) => create(c.user.sub, c.body)));
 */
export function guarded<U>(
  guard: Guard<U>,
  ...middleware: (Middleware | UserMiddleware<U>)[]
): GuardedRoutes<U> {
  const chain = [guard, ...middleware];
  for (const mw of chain) assertMiddleware(mw);
  const routes = { middleware: Object.freeze(chain) } as Record<string, unknown>;
  for (const [name, method] of METHODS) routes[name] = guardedBuilder(method, chain);
  routes.with = (...more: Middleware[]) => guarded<U>(guard, ...middleware, ...more);
  return Object.freeze(routes) as unknown as GuardedRoutes<U>;
}
