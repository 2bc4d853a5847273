/**
 * A `fetch` served by `app.inject()`: the typed client (or any fetch-based code) runs in tests
 * without binding a port.
 * @module
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';

/** What injectFetch needs of an app. */
export interface InjectTarget {
  /** Serves one request without a socket. */
  inject(request: InjectOptions): Promise<LightMyRequestResponse>;
}

/** Statuses whose responses have no body: `Response` refuses one for them. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A function with `fetch`'s signature that answers through `app.inject()`. The URL's origin is
 * ignored: only its path and query reach the app.
 * @example const api = createClient<Api>({ baseUrl: 'http://test', fetch: injectFetch(app) });
 */
export function injectFetch(app: InjectTarget): typeof fetch {
  return async function injectedFetch(input, init) {
    const request = new Request(input instanceof URL ? input.href : input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const options: InjectOptions = {
      method: request.method as InjectOptions['method'] & string,
      url: url.pathname + url.search,
      headers,
    };
    if (request.body) options.payload = Buffer.from(await request.arrayBuffer());
    const res = await app.inject(options);
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const body = NULL_BODY.has(res.statusCode) || request.method === 'HEAD' ? null : res.rawPayload;
    return new Response(body, {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: out,
    });
  };
}
