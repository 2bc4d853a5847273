/**
 * What a middleware adds to the operations it wraps: a guard its 401/403 and security
 * requirement, a rate limit its 429. The OpenAPI builder reads it from every route the
 * middleware runs on (app, group or route level), so "if it can answer it, the docs say it".
 * @module
 */
import type { DocsSecurityScheme } from '../config/index.js';
import type { Schema } from './schema-types.js';
import type { HttpMethod, Middleware, SecurityRequirement } from './types.js';

/** A response header a middleware may set, for the docs. */
export interface DocumentedHeader {
  /** What the header means. */
  description?: string;
  /** Its JSON Schema. @default { type: 'string' } */
  schema?: Record<string, unknown>;
}

/** One response a middleware may answer with. */
export interface DocumentedResponse {
  /** @default the status phrase */
  description?: string;
  /** The body's schema. @default the app's error body (problem+json) */
  schema?: Schema;
  /** Headers sent with it, by name. */
  headers?: Record<string, DocumentedHeader>;
  /**
   * Every problem `code` it answers with under this status: the document then lists them as the
   * enum of the body's `code`. @default unknown: the document leaves `code` open
   */
  codes?: readonly string[];
}

/** A request header a middleware reads, documented as a header parameter. */
export interface DocumentedRequestHeader {
  /** What the header is for. */
  description?: string;
  /** True when the middleware refuses a request without it. @default false */
  required?: boolean;
  /** Its JSON Schema. @default { type: 'string' } */
  schema?: Record<string, unknown>;
}

/** What a middleware declares about itself. */
export interface MiddlewareDocs {
  /**
   * The methods it acts on: operations of other methods get none of these docs (an idempotency
   * key on POST, PATCH and DELETE only). @default every method
   */
  methods?: readonly HttpMethod[];
  /** Request headers it reads, by name: header parameters of the operations it covers. */
  requestHeaders?: Readonly<Record<string, DocumentedRequestHeader>>;
  /** Responses it may answer with, by status. */
  responses?: Readonly<Record<number, DocumentedResponse>>;
  /** Headers it sets on every answer of the operations it wraps (`RateLimit-*`), by name. */
  headers?: Readonly<Record<string, DocumentedHeader>>;
  /** The security requirement it enforces (alternatives; `{}` among them makes it optional). */
  security?: readonly SecurityRequirement[];
  /** The security schemes its requirement names, added to the document's components. */
  securitySchemes?: Readonly<Record<string, DocsSecurityScheme>>;
}

const DOCS = Symbol.for('keelson.middlewareDocs');

type Documented = Middleware & { [DOCS]?: MiddlewareDocs };

/**
 * Attaches `docs` to a middleware and returns the same function.
 * @example
 * const requireKey = describeMiddleware(async (c, next) => {…}, {
 *   responses: { 401: { description: 'No valid API key' } },
 *   security: [{ apiKey: [] }],
 *   securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
 * });
 */
export function describeMiddleware<M extends Middleware>(middleware: M, docs: MiddlewareDocs): M {
  if (typeof middleware !== 'function') {
    throw new TypeError(`describeMiddleware takes a middleware function, got ${typeof middleware}`);
  }
  (middleware as Documented)[DOCS] = docs;
  return middleware;
}

/** What a middleware declared with `describeMiddleware`, if anything. */
export function middlewareDocsOf(middleware: Middleware): MiddlewareDocs | undefined {
  return (middleware as Documented)[DOCS];
}
