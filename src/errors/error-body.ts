/**
 * The app-level error body hook: every error answer, whoever produced it, goes through it.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isStandardSchema } from '../standard-schema.js';
import { PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem.js';

/** What the error body hook knows of the request an error answers. */
export interface ErrorContext {
  /** The request id, when request ids are on. */
  readonly requestId: string | undefined;
  /** The request method, e.g. `GET`; `-` when the request line could not be read. */
  readonly method: string;
  /** The request path without its query; `-` when the request line could not be read. */
  readonly path: string;
}

/**
 * The `errors` option of the App: shapes every error answer (handler, middleware, 404, 405,
 * 413, 415, parser-level answers).
 * @example
 * // RealWorld's envelope: {"errors":{"body":["email is invalid"]}}
 * new App({ serviceName: 'conduit', errors: {
 *   contentType: 'application/json',
 *   body: (p) => ({ errors: { body: p.errors?.map((e) => `${e.path} ${e.message}`) ?? [p.detail] } }),
 * } });
 */
export interface ErrorsOptions {
  /** Turns the problem into the body sent; JSON-serialized. @default the problem itself */
  body?: (problem: ProblemDetails, c: ErrorContext) => unknown;
  /** The Content-Type of error answers. @default 'application/problem+json' */
  contentType?: string;
  /** The schema of the body `body` returns, for the OpenAPI document. @default the Problem schema */
  schema?: StandardSchemaV1;
}

/** The `errors` option resolved: what the answer path and the document builder read. */
export interface ResolvedErrors {
  /** Shapes the body; undefined when the problem is sent as it is. */
  readonly body: ((problem: ProblemDetails, c: ErrorContext) => unknown) | undefined;
  /** The Content-Type of error answers. */
  readonly contentType: string;
  /** The schema of error bodies; undefined for the built-in Problem schema. */
  readonly schema: StandardSchemaV1 | undefined;
}

/** Checks and resolves the App's `errors` option. @throws TypeError naming the bad field. */
export function resolveErrors(options: ErrorsOptions | undefined): ResolvedErrors {
  if (options === undefined) {
    return { body: undefined, contentType: PROBLEM_CONTENT_TYPE, schema: undefined };
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`errors must be an object, got ${String(options)}`);
  }
  const { body, contentType, schema } = options;
  if (body !== undefined && typeof body !== 'function') {
    throw new TypeError(`errors.body must be a function, got ${typeof body}`);
  }
  if (
    contentType !== undefined &&
    (typeof contentType !== 'string' || !contentType.includes('/'))
  ) {
    throw new TypeError(
      `errors.contentType must be a media type such as 'application/json', got ${String(contentType)}`,
    );
  }
  if (schema !== undefined && !isStandardSchema(schema)) {
    throw new TypeError(
      'errors.schema must be a Standard Schema value (Zod 4, Valibot, ArkType …)',
    );
  }
  return { body, contentType: contentType ?? PROBLEM_CONTENT_TYPE, schema };
}
