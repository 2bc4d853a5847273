/**
 * The responses of one operation: what the route declares, what the framework and the
 * middleware around it may answer, and a problem response for every other error.
 * @module
 */
import { type KeelsonErrorCode, statusTitle } from '../errors/index.js';
import type { DocumentedHeader } from '../routing/middleware-docs.js';
import type { HttpMethod } from '../routing/types.js';
import type { SchemaRef } from './components.js';
import { problemWithCodes } from './problem-schema.js';
import type { MediaOf } from './response-media.js';
import type { ContentObject, HeaderObject, JsonSchema, ResponseObject } from './types.js';

/** Statuses whose responses carry no body. */
export const NO_BODY: ReadonlySet<number> = new Set([204, 205, 304]);
/** Methods whose requests the engine parses a body for (and so may refuse with 400/413/415). */
const BODY_METHODS: ReadonlySet<HttpMethod> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
]);
const JSON_TYPE = 'application/json';

/** The body every error answer has: problem+json by default, or the app's own shape. */
export interface ErrorBody {
  /** Its media type. */
  readonly contentType: string;
  /** True for Keelson's Problem, whose `code` the document may enumerate per response. */
  readonly problem: boolean;
  /** Its schema, once the registry has finished; undefined for a body of any shape. */
  schema(): JsonSchema | undefined;
}

/** A response a middleware declares, its schema converted. */
export interface MiddlewareResponse {
  readonly description: string | undefined;
  readonly ref: SchemaRef | undefined;
  readonly headers: Readonly<Record<string, DocumentedHeader>> | undefined;
  /** Every problem code it answers with under this status; null when it did not say. */
  readonly codes: ReadonlySet<string> | null;
}

/** What `responsesOf` needs. */
export interface ResponseInputs {
  readonly method: HttpMethod;
  /** The route's `responses`, converted; undefined for a status without a body. */
  readonly declared: ReadonlyMap<number, SchemaRef | undefined>;
  /** The route's `errors`. */
  readonly errors: readonly number[];
  /** The route validates a part of the request: it may answer 422. */
  readonly validates: boolean;
  /** The route takes uploads (`multipart/form-data`): it may answer their codes. */
  readonly uploads?: boolean;
  /** The operation requires credentials: it may answer 401. */
  readonly secured: boolean;
  readonly middleware: ReadonlyMap<number, MiddlewareResponse>;
  /** The media types of the success responses, by status. */
  readonly media: MediaOf;
  /** Media types that responses' schemas are marked with (event streams), by status. */
  readonly marked: Readonly<Record<number, string>>;
  readonly examples: Readonly<Record<number, unknown>>;
  readonly errorBody: ErrorBody;
  /** Headers the middleware around sets on every answer (`RateLimit-*`). */
  readonly everyHeaders: Readonly<Record<string, DocumentedHeader>>;
  /** The cookies the route sets on its successes (`Set-Cookie`). */
  readonly cookies: readonly string[];
}

/**
 * The codes the framework answers with, by status, on the routes it adds the status to. 5xx
 * are left open (any failure ends there, a service's own codes among them), and so is a 401
 * that no guard declares.
 */
const FRAMEWORK_CODES: Readonly<Record<number, readonly KeelsonErrorCode[]>> = {
  400: ['BAD_REQUEST', 'MALFORMED_JSON', 'INVALID_CONTENT_LENGTH'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  422: ['VALIDATION_FAILED'],
};

/** The problem codes of each error status of an operation; null where they are not all known. */
function codesOf(i: ResponseInputs, framework: readonly number[]) {
  const codes = new Map<number, Set<string> | null>();
  const add = (status: number, more: Iterable<string> | null) => {
    const had = codes.get(status);
    if (had === null) return;
    codes.set(status, more === null ? null : new Set([...(had ?? []), ...more]));
  };
  for (const [status, mw] of i.middleware) add(status, mw.codes);
  for (const status of framework) {
    const known = FRAMEWORK_CODES[status];
    // A 401 from a requirement with no guard that declares it: the service checks it itself.
    if (known) add(status, known);
    else if (!i.middleware.has(status)) codes.set(status, null);
  }
  if (i.uploads) add(400, ['MALFORMED_MULTIPART']);
  // A status the route lists in `errors` is its own: its codes are the service's.
  for (const status of i.errors) codes.set(status, null);
  return codes;
}

/** Headers the framework sends with some statuses. */
const STATUS_HEADERS: Readonly<Record<number, Record<string, HeaderObject>>> = {
  201: { Location: { description: 'The URL of what was created.', schema: { type: 'string' } } },
  405: {
    Allow: { description: 'The methods the path answers.', schema: { type: 'string' } },
  },
  429: {
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } },
  },
  503: {
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } },
  },
};

function headersFor(
  status: number,
  declared: Readonly<Record<string, DocumentedHeader>> | undefined,
): Record<string, HeaderObject> | undefined {
  const out: Record<string, HeaderObject> = { ...STATUS_HEADERS[status] };
  for (const [name, h] of Object.entries(declared ?? {})) {
    const header: HeaderObject = { schema: h.schema ?? { type: 'string' } };
    if (h.description) header.description = h.description;
    out[name] = header;
  }
  return Object.keys(out).length ? out : undefined;
}

function response(
  description: string,
  headers: Record<string, HeaderObject> | undefined,
  content: ContentObject | undefined,
): ResponseObject {
  const r: ResponseObject = { description };
  if (headers) r.headers = headers;
  if (content) r.content = content;
  return r;
}

function body(type: string, schema: JsonSchema | undefined, example: unknown): ContentObject {
  const media: ContentObject[string] = {};
  if (schema) media.schema = schema;
  if (example !== undefined) media.example = example;
  return { [type]: media };
}

// One entry per media type; JSON ones get `{}` ("any value") when there is no schema.
function bodies(
  types: readonly string[],
  schema: JsonSchema | undefined,
  example: unknown,
): ContentObject {
  const out: ContentObject = {};
  for (const type of types)
    Object.assign(out, body(type, schema ?? (type === JSON_TYPE ? {} : undefined), example));
  return out;
}

/** The `responses` of an operation, statuses in order, then `4XX` and `5XX` for other errors. */
export function responsesOf(i: ResponseInputs): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  const bodyless = i.method === 'HEAD';
  const framework = [
    ...(BODY_METHODS.has(i.method) ? [400, 413, 415] : []),
    ...(i.secured ? [401] : []),
    ...(i.validates ? [422] : []),
    ...i.errors,
    500,
  ];
  const codes = codesOf(i, framework);
  const errorContent = (status?: number): ContentObject | undefined => {
    if (bodyless) return undefined;
    const known = status === undefined ? undefined : codes.get(status);
    const schema = i.errorBody.schema();
    const enumerated =
      known?.size && schema && i.errorBody.problem ? problemWithCodes(schema, known) : schema;
    return body(i.errorBody.contentType, enumerated, undefined);
  };
  const byStatus = new Map<number, ResponseObject>();

  // A success is typed by the schema's marker, else by the route's media; an error is JSON.
  const typesOf = (status: number): readonly string[] => {
    if (status >= 400) return [JSON_TYPE];
    const marked = i.marked[status];
    return marked ? [marked] : i.media(status);
  };
  for (const [status, ref] of i.declared) {
    const content =
      bodyless || NO_BODY.has(status)
        ? undefined
        : bodies(typesOf(status), ref?.schema(), i.examples[status]);
    byStatus.set(status, response(statusTitle(status), headersFor(status, undefined), content));
  }
  // A route that declares no success answers 200 with whatever it returns, 204 with nothing. A
  // DELETE documents 204 alone: what it answers by convention (`c.noContent()`); one that
  // answers with a body declares it (`responses: { 200: Schema }`).
  if (![...i.declared.keys()].some((s) => s < 400)) {
    if (i.method !== 'DELETE') {
      const content = bodyless ? undefined : bodies(i.media(200), undefined, i.examples[200]);
      byStatus.set(200, response('OK', undefined, content));
    }
    byStatus.set(204, response('No Content', undefined, undefined));
  }
  for (const [status, mw] of i.middleware) {
    if (byStatus.has(status)) continue;
    const content =
      bodyless || NO_BODY.has(status)
        ? undefined
        : mw.ref
          ? body(JSON_TYPE, mw.ref.schema(), undefined)
          : errorContent(status);
    byStatus.set(
      status,
      response(mw.description ?? statusTitle(status), headersFor(status, mw.headers), content),
    );
  }
  for (const status of framework) {
    if (byStatus.has(status)) continue;
    byStatus.set(
      status,
      response(statusTitle(status), headersFor(status, undefined), errorContent(status)),
    );
  }
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    out[status] = byStatus.get(status)!;
  }
  out['4XX'] = response('Any other client error.', undefined, errorContent());
  out['5XX'] = response('Any other server error.', undefined, errorContent());
  addHeaders(out, i);
  return out;
}

// A response's own headers win over those every answer carries.
function addHeaders(out: Record<string, ResponseObject>, i: ResponseInputs): void {
  const every = headersFor(0, i.everyHeaders);
  const cookie: Record<string, HeaderObject> | undefined = i.cookies.length
    ? {
        'Set-Cookie': {
          description: `Sets the cookies ${i.cookies.join(', ')}.`,
          schema: { type: 'string' },
        },
      }
    : undefined;
  if (!every && !cookie) return;
  for (const [status, r] of Object.entries(out)) {
    const success = Number(status) < 400;
    const headers = { ...every, ...(success ? cookie : undefined), ...r.headers };
    if (Object.keys(headers).length) r.headers = headers;
  }
}
