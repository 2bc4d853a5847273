/**
 * keelson/client: a typed client of a Keelson service, typed by its route definitions, built on
 * `fetch` with no dependency.
 * @module
 */
import type { ProblemDetails } from '../errors/index.js';
import type { HttpMethod } from '../routing/types.js';
import { encodeBody, readBody } from './encoding.js';
import type { Client, ClientResult } from './types.js';

export type { AnswerOf, BodyInput, Decoded, MultipartBody } from './media.js';
export type {
  CallArgs,
  Caller,
  CallOptions,
  Client,
  ClientResult,
  DataOf,
  PathsOf,
  Prefixed,
  RouteAt,
  RouteMap,
  RoutesOf,
  WithHead,
} from './types.js';

/** What `createClient` takes. */
export interface ClientOptions {
  /** The service's URL, e.g. `https://api.example.com`; route paths are appended to it. */
  baseUrl: string;
  /** Headers sent with every request, e.g. credentials. */
  headers?: Record<string, string>;
  /** The fetch to call. @default globalThis.fetch */
  fetch?: typeof fetch;
}

interface RawOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
  init?: RequestInit;
}

/** `:name`, its `(regex)` and `?`. */
const PARAM = /:([A-Za-z0-9_]+)(?:\((?:\\.|[^\\)])*\))?(\?)?/g;

const DROPPED = '\u{2}';

/** The path with its parameters filled in; an optional one left out drops its segment. */
export function fillPath(pattern: string, params: Record<string, unknown> = {}): string {
  const escaped = pattern.replaceAll('::', '\u{1}');
  let path = escaped.replace(PARAM, (_m, name: string, optional?: string) => {
    const value = params[name];
    if (value === undefined || value === null) {
      if (optional) return DROPPED;
      throw new TypeError(`the path ${pattern} needs the parameter ${name}`);
    }
    return encodeURIComponent(String(value));
  });
  path = path.replace(`/${DROPPED}`, '').replace(DROPPED, '') || '/';
  if (path.endsWith('*')) path = path.slice(0, -1) + String(params['*'] ?? '');
  return path.replaceAll('\u{1}', ':');
}

function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const qs = search.toString();
  return qs ? `?${qs}` : '';
}

/**
 * A typed client of the routes in `Api`: `api.get('/users/:id', { params: { id: 1 } })`
 * resolves to `{ data, error, status, response }`, `data` typed by the route's 2xx schemas.
 * A body with a `Blob` or `File` in it, or a `FormData`, is sent as `multipart/form-data`; an
 * answer is decoded by its media type: JSON, text as a string, an event stream as the
 * response's stream, anything else as a `Blob`.
 * @example
 * import type { Api } from 'users-service';
 * const api = createClient<Api>({ baseUrl: 'http://localhost:3000' });
 * const { data, error } = await api.get('/users/:id', { params: { id: 1 } });
 */
export function createClient<Api>({
  baseUrl,
  headers: common = {},
  fetch: doFetch = globalThis.fetch,
}: ClientOptions): Client<Api> {
  const base = baseUrl.replace(/\/+$/, '');
  const call = (method: HttpMethod) =>
    async function request(path: string, options: RawOptions = {}): Promise<ClientResult<unknown>> {
      const headers: Record<string, string> = { ...common, ...options.headers };
      const init: RequestInit = { ...options.init, method, headers };
      if (options.body !== undefined) {
        const body = encodeBody(options.body);
        // A form's type carries its boundary: fetch writes it, so a JSON one must not stand.
        if (typeof body === 'string') headers['content-type'] ??= 'application/json';
        init.body = body;
      }
      const url = base + fillPath(path, options.params) + queryString(options.query);
      const response = await doFetch(url, init);
      const body = await readBody(response, method);
      const status = response.status;
      return status >= 200 && status < 300
        ? { data: body, error: undefined, status, response }
        : { data: undefined, error: body as ProblemDetails, status, response };
    };
  return {
    get: call('GET'),
    post: call('POST'),
    put: call('PUT'),
    patch: call('PATCH'),
    delete: call('DELETE'),
    head: call('HEAD'),
    options: call('OPTIONS'),
  } as unknown as Client<Api>;
}
