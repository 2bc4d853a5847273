import type { Context } from './context.js';
import type {
  Handler,
  HttpMethod,
  MediaTypes,
  Responses,
  RouteDef,
  RouteOptions,
  Schema,
  TypedRouteDef,
} from './types.js';

/**
 * Builds a route for one HTTP method; schemas come before the handler so its types are inferred.
 * `U` is the type of `c.user` (set by `guarded(guard)`'s builders); `M` the method, kept in the
 * route's type with its path and schemas for `RoutesOf` and the typed client.
 */
export interface RouteBuilder<U = unknown, M extends HttpMethod = HttpMethod> {
  <
    Path extends string,
    P extends Schema | undefined = undefined,
    Q extends Schema | undefined = undefined,
    H extends Schema | undefined = undefined,
    B extends Schema | undefined = undefined,
    R extends Responses = Record<never, never>,
    K extends Schema | undefined = undefined,
    MR extends MediaTypes | Readonly<Record<number, MediaTypes>> = 'application/json',
  >(
    path: Path,
    options: RouteOptions<P, Q, H, B, R, K, MR>,
    handler: Handler<Path, P, Q, H, B, R, U, K>,
  ): TypedRouteDef<M, Path, P, Q, H, B, R, MR>;
  <Path extends string>(
    path: Path,
    handler: Handler<Path, undefined, undefined, undefined, undefined, Record<never, never>, U>,
  ): TypedRouteDef<M, Path, undefined, undefined, undefined, undefined, Record<never, never>>;
}

const METHODS: ReadonlySet<string> = new Set([
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
]);

// find-my-way accepts `/a/:id(^\d+)?` and then matches neither `/a` nor `/a/1`.
const OPTIONAL_PATTERN = /:[A-Za-z0-9_]+\((?:\\.|[^\\)])*\)\?/;

/** Builds and checks a route from a builder's arguments. Internal. */
export function makeRoute(method: HttpMethod, path: string, a: unknown, b: unknown): RouteDef {
  if (!METHODS.has(method)) {
    throw new TypeError(
      `route method must be one of ${[...METHODS].join(', ')}, got ${String(method)}`,
    );
  }
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`route path must start with '/', got ${JSON.stringify(path)}`);
  }
  if (OPTIONAL_PATTERN.test(path)) {
    throw new TypeError(
      `route ${method} ${path}: an optional parameter cannot have a pattern (the router would never match it); register the path with the parameter and the path without it as two routes`,
    );
  }
  const options = (typeof a === 'function' ? {} : (a ?? {})) as RouteDef['options'];
  const handler = typeof a === 'function' ? a : b;
  if (typeof handler !== 'function') {
    throw new TypeError(
      `route ${method} ${path}: the handler must be a function, got ${typeof handler}`,
    );
  }
  return Object.freeze({ method, path, options, handler: handler as (c: Context) => unknown });
}

function builder<M extends HttpMethod>(method: M): RouteBuilder<unknown, M> {
  return function buildRoute(path: string, a: unknown, b?: unknown): RouteDef {
    return makeRoute(method, path, a, b);
  } as RouteBuilder<unknown, M>;
}

/** A `GET` route. @example get('/ping', () => ({ ok: true })) */
export const get: RouteBuilder<unknown, 'GET'> = builder('GET');
/** A `POST` route. */
export const post: RouteBuilder<unknown, 'POST'> = builder('POST');
/** A `PUT` route. */
export const put: RouteBuilder<unknown, 'PUT'> = builder('PUT');
/** A `PATCH` route. */
export const patch: RouteBuilder<unknown, 'PATCH'> = builder('PATCH');
/** A `DELETE` route (`delete` is a reserved word). */
export const del: RouteBuilder<unknown, 'DELETE'> = builder('DELETE');
/** A `HEAD` route. */
export const head: RouteBuilder<unknown, 'HEAD'> = builder('HEAD');
/** An `OPTIONS` route. */
export const options: RouteBuilder<unknown, 'OPTIONS'> = builder('OPTIONS');

/** A route for any method: `route('GET', '/ping', handler)`. */
export function route<
  M extends HttpMethod,
  Path extends string,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  H extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Responses = Record<never, never>,
  K extends Schema | undefined = undefined,
  MR extends MediaTypes | Readonly<Record<number, MediaTypes>> = 'application/json',
>(
  method: M,
  path: Path,
  options: RouteOptions<P, Q, H, B, R, K, MR>,
  handler: Handler<Path, P, Q, H, B, R, unknown, K>,
): TypedRouteDef<M, Path, P, Q, H, B, R, MR>;
/** A route for any method, without options. */
export function route<M extends HttpMethod, Path extends string>(
  method: M,
  path: Path,
  handler: Handler<Path, undefined, undefined, undefined, undefined, Record<never, never>>,
): TypedRouteDef<M, Path, undefined, undefined, undefined, undefined, Record<never, never>>;
export function route(method: HttpMethod, path: string, a: unknown, b?: unknown): RouteDef {
  return makeRoute(
    typeof method === 'string' ? (method.toUpperCase() as HttpMethod) : method,
    path,
    a,
    b,
  );
}
