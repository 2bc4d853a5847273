import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Context } from './context.js';

/** A Standard Schema value (Zod 4, Valibot, ArkType, …) that validates one part of a request. */
export type Schema = StandardSchemaV1;

/** The HTTP methods a route can answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Declared responses: status code → schema of the body. */
export type Responses = { readonly [status: number]: Schema };

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
  : { [K in ParamNames<Path>]: string };

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

/** The output type of a schema, or `Fallback` when there is none. */
export type Infer<S, Fallback> = S extends Schema ? StandardSchemaV1.InferOutput<S> : Fallback;

/** The input type of a schema: what a handler must hand over for it. */
export type InferIn<S> = S extends Schema ? StandardSchemaV1.InferInput<S> : never;

/** The raw query as the engine parses it. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** The raw request headers, lower-case names. */
export type RawHeaders = Record<string, string | string[] | undefined>;

/** Marks a value that a reply helper (`created`, `noContent`, `status`) produced. */
export interface Sent {
  /** Type-level brand only; not present at run time. */
  readonly __keelsonSent: true;
}

type SuccessOrder = [200, 201, 202, 203, 204, 205, 206];

type FirstSuccess<R, Codes extends unknown[] = SuccessOrder> = Codes extends [
  infer C,
  ...infer Rest,
]
  ? C extends keyof R
    ? C
    : FirstSuccess<R, Rest>
  : never;

/**
 * The body a handler may return as-is: the input type of its first declared 2xx response,
 * with literal types widened. TypeScript cannot keep `'a'` as `'a'` in a return expression
 * whose expected type comes from a generic being inferred in the same call, so a plain
 * return is checked for shape; `c.status()` and `c.created()` check literals exactly.
 */
export type DefaultBody<R> = [FirstSuccess<R>] extends [never]
  ? unknown
  : FirstSuccess<R> extends 204
    ? undefined
    : Loose<InferIn<R[FirstSuccess<R> & keyof R]>>;

/** `T` with its string, number and boolean literal types widened, deeply. */
export type Loose<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends Date | RegExp | Uint8Array | ((...args: never[]) => unknown)
        ? T
        : T extends readonly (infer E)[]
          ? Loose<E>[]
          : T extends object
            ? { [K in keyof T]: Loose<T[K]> }
            : T;

/** The body the route declares for `status`, or anything when it declares no responses. */
export type BodyFor<R, S extends number> = [keyof R] extends [never]
  ? unknown
  : S extends keyof R
    ? InferIn<R[S]>
    : never;

/** What a handler may return. */
export type HandlerResult<R> = DefaultBody<R> | Sent;

/** Security requirement of a route: scheme name → scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** Everything a route can declare besides its method, path and handler. */
export interface RouteOptions<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  H extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Responses = Responses,
> {
  /** Schema of the path parameters. */
  params?: P;
  /** Schema of the query string. */
  query?: Q;
  /** Schema of the request headers (lower-case names). */
  headers?: H;
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
  /** Marks the operation deprecated in the docs. */
  deprecated?: boolean;
  /** Security schemes the route requires. */
  security?: SecurityRequirement[];
  /** The OpenAPI operationId; derived from method and path when absent. */
  operationId?: string;
  /** Error statuses the route may answer with (KErrors it throws), for the docs. */
  errors?: number[];
  /** Middleware that runs for this route only, innermost. */
  middleware?: Middleware[];
  /** Leaves the route out of the OpenAPI document. @default false */
  hidden?: boolean;
}

/** A route handler: gets the typed context, returns the response body. */
export type Handler<
  Path extends string,
  P extends Schema | undefined,
  Q extends Schema | undefined,
  H extends Schema | undefined,
  B extends Schema | undefined,
  R extends Responses,
> = (
  c: Context<
    Infer<P, PathParams<Path>>,
    Infer<Q, RawQuery>,
    Infer<H, RawHeaders>,
    Infer<B, unknown>,
    R
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
    Responses
  >;
  /** The handler, type-erased once the route is built. */
  readonly handler: (c: Context) => unknown;
}

/** Something that owns routes: `routes()` lists them. */
export interface Controller {
  /** The routes of this controller. */
  routes(): readonly RouteDef[];
}
