/**
 * The types of schemas, responses and reply values, shared by the context and the route types.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** A Standard Schema value (Zod 4, Valibot, ArkType, …) that validates one part of a request. */
export type Schema = StandardSchemaV1;

/** Declared responses: status code → schema of the body. */
export type Responses = { readonly [status: number]: Schema };

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
