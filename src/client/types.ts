/**
 * The types of the typed client: an API type made from route definitions, and what each call
 * takes and resolves to.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ProblemDetails } from '../errors/index.js';
import type { HttpMethod, PathParams, TypedRouteDef } from '../routing/types.js';
import type { AnswerOf, BodyInput, ByRouteMedia } from './media.js';

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
  Routes extends TypedRouteDef<
    infer M,
    infer Path,
    infer P,
    infer Q,
    infer H,
    infer B,
    infer R,
    infer Media
  >
    ? TypedRouteDef<M, Path extends '/' ? Prefix : `${Prefix}${Path}`, P, Q, H, B, R, Media>
    : never;

type PartName = 'params' | 'query' | 'headers' | 'body' | 'responses' | 'media';
type Part<Route, K extends PartName> = Route extends { readonly '~route'?: infer T }
  ? NonNullable<T> extends { [P in K]: infer V }
    ? V
    : undefined
  : undefined;
type PathOf<Route> = Route extends { readonly path: infer P extends string } ? P : string;
type InputOf<S, Fallback> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : Fallback;

/**
 * The routes of `Api` that answer `M`, keyed by path: built once per API and method, so finding
 * a call's route is one property lookup however many routes there are.
 */
export type RouteMap<Api, M extends HttpMethod> = {
  [R in Api as R extends { readonly method: M; readonly path: infer P extends string }
    ? P
    : never]: R;
};

/** The paths of the routes of `Api` that answer `M`. */
export type PathsOf<Api, M extends HttpMethod> = keyof RouteMap<Api, M> & string;

/** The route of `Api` that answers `M` on `Path`. */
export type RouteAt<Api, M extends HttpMethod, Path extends string> = RouteMap<Api, M>[Path &
  keyof RouteMap<Api, M>];

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
  body: BodyInput<Part<Route, 'body'>>;
}> & { /** Extra request headers. */ init?: RequestInit };

type HasRequired<T> = Record<never, never> extends T ? false : true;

/** The arguments after the path: the options, required when a part of them is. */
export type CallArgs<Route> =
  HasRequired<CallOptions<Route>> extends true
    ? [options: CallOptions<Route>]
    : [options?: CallOptions<Route>];

type Success = 200 | 201 | 202 | 203 | 204 | 205 | 206;

/**
 * The data of the route's 2xx answers: from its response schemas, decoded by its media type
 * (`Blob` for binary, `string` for text, a stream for an event stream).
 */
export type DataOf<Route> =
  Part<Route, 'responses'> extends infer R
    ? [keyof R] extends [never]
      ? ByRouteMedia<Part<Route, 'media'>, unknown>
      : {
          [S in keyof R & Success]: S extends 204 | 205
            ? undefined
            : AnswerOf<R[S], Part<Route, 'media'>>;
        }[keyof R & Success]
    : unknown;

/** What a call resolves to: `data` for a 2xx answer, `error` (the problem body) otherwise. */
export type ClientResult<Data> =
  | { data: Data; error: undefined; status: number; response: Response }
  | { data: undefined; error: ProblemDetails; status: number; response: Response };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;

// One signature per path: a call picks its signature by the path alone and checks its options
// against that route only. A generic signature over every route (its options a union of all of
// them while the path is being inferred) costs a union of every route's options per call, and
// past ~300 routes of a method TypeScript gives up on such calls (TS2590).
type PerPath<Routes> = UnionToIntersection<
  {
    [P in keyof Routes & string]: (
      path: P,
      ...args: CallArgs<Routes[P]>
    ) => Promise<ClientResult<DataOf<Routes[P]>>>;
  }[keyof Routes & string]
>;

// The last signature, met only by a call that no path's signature accepts: a generic one, so
// that its error is the one TypeScript shows: the paths there are, or what the route wants.
type AnyPath<Routes> = <Path extends keyof Routes & string>(
  path: Path,
  ...args: CallArgs<Routes[Path]>
) => Promise<ClientResult<DataOf<Routes[Path]>>>;

/** One method of the client: the route pattern, then its options. */
export type Caller<Api, M extends HttpMethod> = PerPath<RouteMap<Api, M>> &
  AnyPath<RouteMap<Api, M>>;

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
