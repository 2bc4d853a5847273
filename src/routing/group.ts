import { assertContract } from '../contracts.js';
import { checkDeprecation, type Deprecation, scopeVersion } from './deprecation.js';
import type { Scope } from './table.js';
import { normalizePrefix } from './table.js';
import type { Controller, Middleware, RouteDef } from './types.js';

/** A unit that registers itself on an app of type `A`: what `Module` is for the App. */
export interface Registrable<A> {
  /** Registers the unit's parts on the app. */
  register(app: A): void;
  /** True for a module that must be used on the app itself, not on a group (a database). */
  readonly appOnly?: boolean;
}

/**
 * Runs `module.register(app)` with `scope` as the current scope (`enter` sets it and returns the
 * one to restore). Throws for a module that is not one, an app-only module used on a group, and
 * a `register` that returned a Promise.
 */
export function registerModule<A>(
  app: A,
  module: Registrable<A>,
  scope: Scope,
  enter: (scope: Scope) => Scope,
): void {
  assertContract(module, ['register'], 'a module', 'register(app)');
  if (module.appOnly && scope.parent !== undefined) {
    throw new TypeError(
      `${originOf(module)} must be used on the app (app.use(…)), not on a group ("${scope.prefix}")`,
    );
  }
  const outer = enter(scope);
  try {
    const result: unknown = module.register(app);
    if (result instanceof Promise) {
      throw new TypeError(
        `${originOf(module)}.register(app) must register synchronously, it returned a Promise`,
      );
    }
  } finally {
    enter(outer);
  }
}

/** What a Group needs from its App: registration into a scope. Internal. */
export interface ScopeHost<A> {
  /** Registers routes in `scope`, naming `origin` in errors. */
  addIn(scope: Scope, routes: readonly RouteDef[], origin: string): void;
  /** Runs a module's registration with `scope` as the current scope. */
  useModuleIn(scope: Scope, module: Registrable<A>): void;
}

/** What a group may declare besides its prefix and middleware: `app.group('/v2', { version: 'v2' })`. */
export interface GroupOptions {
  /**
   * The API version of the group's routes: they get a document of their own at
   * `<docs.path>/<version>/openapi.json` (with the routes of no version). Nested groups inherit it.
   */
  version?: string;
  /** Marks every route of the group deprecated (a route's own `deprecated` wins). */
  deprecated?: Deprecation;
}

/** A version name: letters, digits, `.`, `_` and `-`, as it appears in a URL. */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The options and middleware of `group(prefix, options?, ...middleware)`, checked. */
export function groupArguments(
  prefix: string,
  first: GroupOptions | Middleware | undefined,
  rest: readonly Middleware[],
): { options: GroupOptions; middleware: Middleware[] } {
  if (first === undefined || typeof first === 'function') {
    return { options: {}, middleware: first === undefined ? [...rest] : [first, ...rest] };
  }
  if (typeof first !== 'object' || first === null) assertMiddleware(first);
  const where = `group ${JSON.stringify(prefix)}`;
  const { version, deprecated } = first;
  if (version !== undefined && (typeof version !== 'string' || !VERSION.test(version))) {
    throw new TypeError(
      `${where}: version must be letters, digits, '.', '_' or '-', got ${JSON.stringify(version)}`,
    );
  }
  checkDeprecation(deprecated, where);
  return { options: first, middleware: [...rest] };
}

/** A set of routes under one path prefix and middleware; made by `app.group()`. */
/** The app type `A` is what modules used on the group receive. */
export class Group<A = unknown> {
  readonly #host: ScopeHost<A>;
  readonly #scope: Scope;

  /** Made by `app.group()` and `group.group()`; not for service code. */
  constructor(
    host: ScopeHost<A>,
    parent: Scope,
    prefix: string,
    middleware: readonly Middleware[],
    options: GroupOptions = {},
  ) {
    for (const mw of middleware) assertMiddleware(mw);
    const outer = scopeVersion(parent);
    if (options.version !== undefined && outer !== undefined && outer !== options.version) {
      throw new TypeError(
        `group ${JSON.stringify(prefix)}: version ${JSON.stringify(options.version)} inside a group of version ${JSON.stringify(outer)}`,
      );
    }
    this.#host = host;
    this.#scope = {
      prefix: parent.prefix + normalizePrefix(prefix),
      middleware: [...middleware],
      parent,
      ...(options.version !== undefined ? { version: options.version } : {}),
      ...(options.deprecated !== undefined ? { deprecated: options.deprecated } : {}),
    };
  }

  /** The API version of this group's routes, its own or inherited. */
  get version(): string | undefined {
    return scopeVersion(this.#scope);
  }

  /** The full prefix of this group. */
  get prefix(): string {
    return this.#scope.prefix;
  }

  /** Registers a controller's routes under this group's prefix and middleware. */
  registerController(controller: Controller): this {
    this.#host.addIn(this.#scope, routesOf(controller), originOf(controller));
    return this;
  }

  /** Registers routes directly under this group. */
  addRoutes(...routes: RouteDef[]): this {
    this.#host.addIn(this.#scope, routes, `group ${this.prefix}`);
    return this;
  }

  /** Adds middleware to this group (a function), or registers a module under it. */
  use(item: Registrable<A> | Middleware): this {
    if (typeof item === 'function') this.#scope.middleware.push(item);
    else this.#host.useModuleIn(this.#scope, item);
    return this;
  }

  /** A nested group inside this one: `prefix`, then options (`{ deprecated }`), then middleware. */
  group(prefix: string, first?: GroupOptions | Middleware, ...rest: Middleware[]): Group<A> {
    return Group.open<A>(this.#host, this.#scope, prefix, first, rest);
  }

  /** Makes a group from `group()`'s arguments, checked. Internal. */
  static open<A>(
    host: ScopeHost<A>,
    parent: Scope,
    prefix: string,
    first: GroupOptions | Middleware | undefined,
    rest: readonly Middleware[],
  ): Group<A> {
    const { options, middleware } = groupArguments(prefix, first, rest);
    return new Group<A>(host, parent, prefix, middleware, options);
  }
}

/** The routes of a controller, checked. */
export function routesOf(controller: Controller): readonly RouteDef[] {
  if (!controller || typeof controller.routes !== 'function') {
    throw new TypeError(`a controller must have a routes() method, got ${describe(controller)}`);
  }
  const routes = controller.routes();
  if (!Array.isArray(routes)) {
    throw new TypeError(`${originOf(controller)}.routes() must return an array of routes`);
  }
  return routes;
}

/** A name for whoever registered routes: the class name, for error messages. */
export function originOf(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name && name !== 'Object' ? name : 'a controller';
}

/** Throws unless `mw` is a function. */
export function assertMiddleware(mw: unknown): asserts mw is Middleware {
  if (typeof mw !== 'function')
    throw new TypeError(`middleware must be a function, got ${describe(mw)}`);
}

function describe(v: unknown): string {
  return v === null ? 'null' : typeof v;
}
