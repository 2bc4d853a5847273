/**
 * The types of the typed client: an API type made from route definitions, and what each call
 * takes and resolves to.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ProblemDetails } from '../errors/index.js';
import type { HttpMethod, PathParams, TypedRouteDef } from '../routing/types.js';

type AnyRoute = TypedRouteDef<HttpMethod, string, unknown, unknown, unknown, unknown, unknown>;

/**
 * The routes of a route, an array of routes, a controller, or a tuple of any of these, as one
 * union: the `Api` type a client is created with.
 * @example export type Api = RoutesOf<[UsersController, typeof health]>;
 */
export type RoutesOf<T> = T extends AnyRoute
  ? T
  : T extends readonly unknown[]
    ? RoutesOf<T[number]>
    : T extends { routes(): infer R }
      ? RoutesOf<R>
      : T extends abstract new (
            ...args: never[]
          ) => infer I
        ? RoutesOf<I>
        : never;

/** Routes under a group prefix: `Prefixed<'/api/v1', RoutesOf<UsersController>>`. */
export type Prefixed<Prefix extends string, Routes> =
  Routes extends TypedRouteDef<infer M, infer Path, infer P, infer Q, infer H, infer B, infer R>
    ? TypedRouteDef<M, Path extends '/' ? Prefix : `${Prefix}${Path}`, P, Q, H, B, R>
    : never;

type PartName = 'params' | 'query' | 'headers' | 'body' | 'responses';
type Part<Route, K extends PartName> = Route extends { readonly '~route'?: infer T }
  ? NonNullable<T> extends { [P in K]: infer V }
    ? V
    : undefined
  : undefined;
type PathOf<Route> = Route extends { readonly path: infer P extends string } ? P : string;
type InputOf<S, Fallback> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : Fallback;
type OutputOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown;

/** The paths of the routes of `Api` that answer `M`. */
export type PathsOf<Api, M extends HttpMethod> = Api extends TypedRouteDef<M, infer P> ? P : never;

/** The route of `Api` that answers `M` on `Path`. */
export type RouteAt<Api, M extends HttpMethod, Path extends string> = Extract<
  Api,
  { readonly method: M; readonly path: Path }
>;

type ParamValues<Path extends string> = {
  [K in keyof PathParams<Path>]: string | number;
};

// An absent query or header set reaches the server as `{}`: optional when `{}` is valid.
type EmptyIsOptional<T> = Record<never, never> extends T ? T | undefined : T;

type Optionalize<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & { [K in keyof T as undefined extends T[K] ? K : never]?: T[K] };

/** What one call takes besides the path: params, query, headers and body, typed by the route. */
export type CallOptions<Route> = Optionalize<{
  params: [keyof PathParams<PathOf<Route>>] extends [never]
    ? undefined
    : InputOf<Part<Route, 'params'>, ParamValues<PathOf<Route>>>;
  query: EmptyIsOptional<InputOf<Part<Route, 'query'>, Record<string, unknown> | undefined>>;
  headers: EmptyIsOptional<InputOf<Part<Route, 'headers'>, Record<string, string> | undefined>>;
  body: InputOf<Part<Route, 'body'>, unknown>;
}> & { /** Extra request headers. */ init?: RequestInit };

type HasRequired<T> = Record<never, never> extends T ? false : true;

/** The arguments after the path: the options, required when a part of them is. */
export type CallArgs<Route> =
  HasRequired<CallOptions<Route>> extends true
    ? [options: CallOptions<Route>]
    : [options?: CallOptions<Route>];

type Success = 200 | 201 | 202 | 203 | 204 | 205 | 206;

/** The body of the route's 2xx answers, from its response schemas. */
export type DataOf<Route> =
  Part<Route, 'responses'> extends infer R
    ? [keyof R] extends [never]
      ? unknown
      : { [S in keyof R & Success]: S extends 204 | 205 ? undefined : OutputOf<R[S]> }[keyof R &
          Success]
    : unknown;

/** What a call resolves to: `data` for a 2xx answer, `error` (the problem body) otherwise. */
export type ClientResult<Data> =
  | { data: Data; error: undefined; status: number; response: Response }
  | { data: undefined; error: ProblemDetails; status: number; response: Response };

/** One method of the client: the route pattern, then its options. */
export type Caller<Api, M extends HttpMethod> = <Path extends PathsOf<Api, M>>(
  path: Path,
  ...args: CallArgs<RouteAt<Api, M, Path>>
) => Promise<ClientResult<DataOf<RouteAt<Api, M, Path>>>>;

/** `Api` with every GET route also answering HEAD, as the engine does, without a body. */
export type WithHead<Api> =
  | Api
  | (Api extends TypedRouteDef<'GET', infer Path, infer P, infer Q, infer H, infer B>
      ? TypedRouteDef<'HEAD', Path, P, Q, H, B, { 200: StandardSchemaV1<undefined> }>
      : never);

/** The typed client of `Api`: one method per HTTP verb. */
export interface Client<Api> {
  /** `GET path`. */
  get: Caller<Api, 'GET'>;
  /** `POST path`. */
  post: Caller<Api, 'POST'>;
  /** `PUT path`. */
  put: Caller<Api, 'PUT'>;
  /** `PATCH path`. */
  patch: Caller<Api, 'PATCH'>;
  /** `DELETE path`. */
  delete: Caller<Api, 'DELETE'>;
  /** `HEAD path`. */
  head: Caller<WithHead<Api>, 'HEAD'>;
  /** `OPTIONS path`. */
  options: Caller<Api, 'OPTIONS'>;
}
