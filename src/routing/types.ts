import type { Context } from './context.js';
import type {
  HandlerResult,
  Infer,
  RawHeaders,
  RawQuery,
  Responses,
  Schema,
} from './schema-types.js';

export type {
  BodyFor,
  DefaultBody,
  HandlerResult,
  Infer,
  InferIn,
  Loose,
  RawHeaders,
  RawQuery,
  Responses,
  Schema,
  Sent,
} from './schema-types.js';

/** The HTTP methods a route can answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** What `next()` resolves to: the value the inner layers answered with. */
export type Next = () => Promise<unknown>;

/**
 * A middleware: runs around everything inside it (app ▸ group ▸ route ▸ handler).
 * Return `next()` to pass the answer through, or return a value of your own to answer early.
 */
export type Middleware = (c: Context, next: Next) => Promise<unknown> | unknown;

/** The names of the `:params` in a path literal, as an object of strings. */
export type PathParams<Path extends string> = string extends Path
  ? Record<string, string>
  : { [K in ParamNames<Path> | Wildcard<Path>]: string };

// The `*` at the end of a path is a parameter named `*`.
type Wildcard<Path extends string> = Path extends `${string}*` ? '*' : never;

type ParamNames<Path extends string> = Path extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? CleanName<Name> | ParamNames<`/${Tail}`>
    : CleanName<Rest>
  : never;

// `:id?` and `:file.json` style suffixes are not part of the name.
type CleanName<N extends string> = N extends `${infer A}?`
  ? A
  : N extends `${infer A}.${string}`
    ? A
    : N;

/** Security requirement of a route: scheme name → scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** One media type, or several a response may have (`['image/png', 'application/pdf']`). */
export type MediaTypes = string | readonly string[];

/** The details of a deprecation; every field is optional. */
export interface DeprecationDetails {
  /**
   * When the route was (or will be) deprecated: the `Deprecation: @<epoch seconds>` header.
   * @default the time the app mounted the route (it is deprecated from now on)
   */
  since?: Date;
  /** When the route stops answering: the `Sunset` header (an HTTP-date). Not before `since`. */
  sunset?: Date;
  /** The URL of the route that replaces it: a `Link` with `rel="successor-version"`. */
  link?: string;
  /** The URL of a page about the deprecation: a `Link` with `rel="deprecation"`. */
  info?: string;
}

/**
 * A route's or a group's deprecation: `true`, or the dates and links of it. A route's own value
 * wins over its group's (`false` on a route of a deprecated group undeprecates it).
 */
export type Deprecation = boolean | DeprecationDetails;

/** Everything a route can declare besides its method, path and handler. */
export interface RouteOptions<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  H extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Responses = Responses,
  K extends Schema | undefined = undefined,
  MR extends MediaTypes | Readonly<Record<number, MediaTypes>> = string,
> {
  /** Schema of the path parameters. */
  params?: P;
  /** Schema of the query string. */
  query?: Q;
  /** Schema of the request headers (lower-case names). */
  headers?: H;
  /** Schema of the request cookies, by name (documented as `in: cookie` parameters). */
  cookies?: K;
  /** Schema of the JSON body. */
  body?: B;
  /** Schemas of the responses, by status. The first 2xx is the status of a plain return. */
  responses?: R;
  /** A one-line summary for the docs. */
  summary?: string;
  /** A longer description for the docs. */
  description?: string;
  /** Tags that group the operation in the docs. */
  tags?: string[];
  /**
   * Marks the route deprecated: `deprecated: true` in the docs, `Deprecation`, `Sunset` and
   * `Link` headers on its answers, and its calls counted (see `DeprecationDetails`).
   */
  deprecated?: Deprecation;
  /** Security schemes the route requires. */
  security?: SecurityRequirement[];
  /** The OpenAPI operationId; derived from method and path when absent. */
  operationId?: string;
  /** Error statuses the route may answer with (KErrors it throws), for the docs. */
  errors?: number[];
  /** Names of the cookies the route sets, documented as `Set-Cookie` on its successes. */
  responseCookies?: string[];
  /** Middleware that runs for this route only, innermost. */
  middleware?: Middleware[];
  /**
   * Media types for the docs: `body` the request body's (@default `application/json`; e.g.
   * `multipart/form-data`), `responses` the success responses' (@default `application/json`;
   * e.g. `text/plain`, `application/octet-stream`, `text/event-stream`): one, several (a
   * download of `['image/png', 'application/pdf']`), or by status (`{ 200: […], 206: … }`).
   */
  media?: { body?: string; responses?: MR };
  /** Examples for the docs: the request body's, and the responses' by status. */
  examples?: { body?: unknown; responses?: Readonly<Record<number, unknown>> };
  /** Leaves the route out of the OpenAPI document. @default false */
  hidden?: boolean;
  /**
   * After this many milliseconds `c.signal` aborts and the client gets 504 `TIMEOUT`; 0 turns
   * the app's default off for this route. @default the app's `timeoutMs` (none)
   */
  timeoutMs?: number;
}

/** A route handler: gets the typed context (`U`: the user its guards set), returns the response body. */
export type Handler<
  Path extends string,
  P extends Schema | undefined,
  Q extends Schema | undefined,
  H extends Schema | undefined,
  B extends Schema | undefined,
  R extends Responses,
  U = unknown,
  K extends Schema | undefined = undefined,
> = (
  c: Context<
    Infer<P, PathParams<Path>>,
    Infer<Q, RawQuery>,
    Infer<H, RawHeaders>,
    Infer<B, unknown>,
    R,
    U,
    Infer<K, Record<string, string | undefined>>
  >,
) => Promise<HandlerResult<R>> | HandlerResult<R>;

/** A route as the builders make it: method, path, options and handler. */
export interface RouteDef {
  /** The HTTP method. */
  readonly method: HttpMethod;
  /** The path pattern, `:name` for parameters. */
  readonly path: string;
  /** What the route declares. */
  readonly options: RouteOptions<
    Schema | undefined,
    Schema | undefined,
    Schema | undefined,
    Schema | undefined,
    Responses,
    Schema | undefined
  >;
  /** The handler, type-erased once the route is built. */
  readonly handler: (c: Context) => unknown;
}

/**
 * A route that keeps its method, path and schemas in its type, for `RoutesOf` and the typed
 * client; at run time it is the same object as a RouteDef.
 */
export interface TypedRouteDef<
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
  P = unknown,
  Q = unknown,
  H = unknown,
  B = unknown,
  R = unknown,
  Media = unknown,
> extends RouteDef {
  /** The HTTP method. */
  readonly method: M;
  /** The path pattern. */
  readonly path: Path;
  /** Type-level only: the route's schemas and success media type. Never present at run time. */
  readonly '~route'?: { params: P; query: Q; headers: H; body: B; responses: R; media: Media };
}

/** Something that owns routes: `routes()` lists them. */
export interface Controller {
  /** The routes of this controller. */
  routes(): readonly RouteDef[];
}
