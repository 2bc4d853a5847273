import type { Deprecation, HttpMethod, Middleware, RouteDef } from './types.js';

/** Where a route was registered: a prefix and middleware, nested inside its parent's. */
export interface Scope {
  /** The full prefix, `''` at the app's root. */
  readonly prefix: string;
  /** Middleware added at this level, run after the parent's. */
  readonly middleware: Middleware[];
  /** The enclosing scope, absent at the root. */
  readonly parent: Scope | undefined;
  /** The API version set at this level (`app.group(prefix, { version })`), if any. */
  readonly version?: string;
  /** The deprecation set at this level, if any. */
  readonly deprecated?: Deprecation;
}

/** One route in the table: what both the engine and the OpenAPI document are built from. */
export interface RouteEntry {
  /** The HTTP method. */
  readonly method: HttpMethod;
  /** The full path, prefix included. */
  readonly path: string;
  /** The route as it was built. */
  readonly def: RouteDef;
  /** The scope it was registered in. */
  readonly scope: Scope;
  /** Who registered it (a controller's class name, `app`, `keelson`), for error messages. */
  readonly origin: string;
  /** True for the routes Keelson adds itself (/health, docs), which app middleware skips. */
  readonly builtin: boolean;
}

/** Joins a prefix and a route path: `/api` + `/users` → `/api/users`, `/api` + `/` → `/api`. */
export function joinPath(prefix: string, path: string): string {
  if (!prefix) return path;
  return path === '/' ? prefix : prefix + path;
}

/** Checks and normalises a group prefix: starts with `/`, no trailing `/`. */
export function normalizePrefix(prefix: string): string {
  if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
    throw new TypeError(`group prefix must start with '/', got ${JSON.stringify(prefix)}`);
  }
  return prefix.length > 1 && prefix.endsWith('/')
    ? prefix.slice(0, -1)
    : prefix === '/'
      ? ''
      : prefix;
}

/** The middleware of a scope and all its parents, outermost first. */
function middlewareOf(scope: Scope): Middleware[] {
  const chain: Middleware[][] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.unshift(s.middleware);
  return chain.flat();
}

/**
 * The middleware chain of a route, outermost first: the app's (not on Keelson's own routes), its
 * groups', its own. A middleware met twice (a guard on the group and on the route) runs once, at
 * its outermost place. The one rule for mounting, WebSockets, the document and the route table.
 */
export function chainOf(entry: RouteEntry, appMiddleware: readonly Middleware[]): Middleware[] {
  const layers = new Set([
    ...(entry.builtin ? [] : appMiddleware),
    ...middlewareOf(entry.scope),
    ...(entry.def.options.middleware ?? []),
  ]);
  return [...layers];
}

// `/users/:id` and `/users/:userId` are the same route to the router.
function routeKey(method: string, path: string): string {
  return `${method} ${path.replace(/:[^/]+/g, ':')}`;
}

/** The app's routes, in registration order, each method and path at most once. */
export class RouteTable {
  readonly #entries: RouteEntry[] = [];
  readonly #byKey = new Map<string, RouteEntry>();

  /** Adds a route; throws when the same method and path is already registered, naming both. */
  add(def: RouteDef, scope: Scope, origin: string, builtin = false): RouteEntry {
    const path = joinPath(scope.prefix, def.path);
    const key = routeKey(def.method, path);
    const existing = this.#byKey.get(key);
    if (existing) {
      throw new Error(
        `duplicate route ${def.method} ${path}: registered by ${existing.origin} as ${existing.method} ${existing.path} and again by ${origin}`,
      );
    }
    const entry: RouteEntry = Object.freeze({
      method: def.method,
      path,
      def,
      scope,
      origin,
      builtin,
    });
    this.#entries.push(entry);
    this.#byKey.set(key, entry);
    return entry;
  }

  /** Every route, in registration order. */
  get entries(): readonly RouteEntry[] {
    return this.#entries;
  }
}
