/**
 * `app.inject()` on the Bun engine: the request made a web `Request`, answered by the
 * dispatcher with no socket, the `Response` read into light-my-request's shape, so a test is
 * written once for both engines.
 * @module
 */
import { STATUS_CODES } from 'node:http';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ResponseBody } from './bun-types.js';
import type { Dispatch } from './dispatch.js';

function urlOf(options: InjectOptions): string {
  const given = options.url ?? options.path ?? '/';
  const text = typeof given === 'string' ? given : given.pathname;
  const url = new URL(text, 'http://localhost');
  const query = options.query;
  if (typeof query === 'string') url.search = query;
  else if (query) {
    for (const [name, value] of Object.entries(query)) {
      for (const v of [value].flat()) url.searchParams.append(name, String(v));
    }
  }
  return url.href;
}

function bodyOf(options: InjectOptions, headers: Headers): ResponseBody | undefined {
  const payload = options.payload ?? options.body;
  if (payload === undefined || payload === null) return undefined;
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload as ResponseBody;
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return JSON.stringify(payload);
}

function requestOf(options: InjectOptions | string): Request {
  const opts: InjectOptions = typeof options === 'string' ? { url: options } : options;
  const headers = new Headers();
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value !== undefined) for (const v of [value].flat()) headers.append(name, String(v));
  }
  const method = (opts.method ?? 'GET').toUpperCase();
  const body = bodyOf(opts, headers);
  if (body !== undefined && !headers.has('content-length')) {
    headers.set(
      'content-length',
      String(typeof body === 'string' ? Buffer.byteLength(body) : (body as Uint8Array).byteLength),
    );
  }
  const init: RequestInit = { method, headers };
  if (body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = body;
  return new Request(urlOf(opts), init);
}

/** Answers `options` through `dispatch`, read whole, as light-my-request answers. */
export async function bunInject(
  dispatch: Dispatch,
  options: InjectOptions | string,
): Promise<LightMyRequestResponse> {
  const response = await dispatch(requestOf(options), undefined);
  const raw = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  const payload = raw.toString('utf8');
  const result = {
    statusCode: response.status,
    statusMessage: STATUS_CODES[response.status] ?? '',
    headers,
    rawPayload: raw,
    payload,
    body: payload,
    json: () => JSON.parse(payload) as unknown,
    stream: () => {
      throw new Error('stream() is not available from the Bun engine');
    },
    cookies: [],
    trailers: {},
    raw: { req: undefined, res: undefined },
  };
  return result as unknown as LightMyRequestResponse;
}
