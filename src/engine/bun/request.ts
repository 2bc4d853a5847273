/**
 * The request object of the Bun engine: what `c.request` is there, with the names of Fastify's
 * request that Keelson and service code read (`id`, `method`, `url`, `headers`, `params`,
 * `query`, `body`, `ip`), built from a web `Request`.
 * @module
 */
import type { Span } from '../../contracts.js';
import type { BunServer } from './bun-types.js';
import type { CookieJar } from './cookie-jar.js';

/** Header values as Node gives them: lower-case names, `set-cookie` a list. */
export type PlainHeaders = Record<string, string | string[] | undefined>;

/** How the engine works out a request's client address. */
export type AddressOf = (request: BunRequest) => string;

/** What every request of one app shares. */
export interface RequestShared {
  /** The client's address of a request. */
  readonly addressOf: AddressOf;
  /** Whether the request's peer is a proxy the app trusts (`trustProxy`). */
  readonly trustsPeer: (request: BunRequest) => boolean;
  /** The shutdown's deadline. */
  readonly deadline: AbortSignal;
  /** Cookies, with the app's `cookies` option. */
  readonly cookies: CookieJar;
  /** The jar's parser, as `request.server.parseCookie`. */
  readonly cookieParser: { parseCookie(header: string): Record<string, string | undefined> };
}

/** The address of the peer that sent the request (`127.0.0.1` under `inject()`). */
export function peerOf(request: BunRequest): string {
  return request.bunServer?.requestIP(request.native)?.address ?? request.peer ?? '127.0.0.1';
}

/** The last value of a header a chain of proxies appended to. */
function lastEntry(value: string): string {
  const comma = value.lastIndexOf(',');
  return (comma === -1 ? value : value.slice(comma + 1)).trim();
}

/** One request on the Bun engine. */
export class BunRequest {
  /** The request id (the `x-request-id` header when valid, else a fresh one). */
  id = '';
  /** The method, upper case. */
  readonly method: string;
  /** The request target: path and query, as the client sent them. */
  readonly url: string;

  /** Path parameters, once routed. */
  params: Record<string, string> = {};
  /** Query parameters, once routed. */
  query: Record<string, unknown> = {};
  /** The parsed body, once read. */
  body: unknown = undefined;
  /** The web request underneath. */
  readonly native: Request;
  keelsonSpan: Span | null = null;
  keelsonError: unknown = null;
  keelsonRoute: string | null = null;
  keelsonRecorded = false;
  keelsonDeprecated: string | null = null;
  keelsonReadBody: (() => Promise<void>) | null = null;
  /** The Bun server that received it; undefined under `inject()`. */
  readonly bunServer: BunServer | undefined;
  /** Why the request's log entry ends early (its client left mid-body); undefined when it did not. */
  cutOff: string | undefined = undefined;
  /** The request's cookies once read (`c.cookies`); null before, as on the Fastify engine. */
  cookies: Record<string, string | undefined> | null = null;
  /** The peer's address `inject()` was given (`remoteAddress`). */
  readonly peer: string | undefined;
  readonly #shared: RequestShared;
  #ip: string | undefined;
  #headers: PlainHeaders | undefined;
  #done = false;
  #unfollow: (() => void) | undefined;
  #following: AbortController | undefined;

  /** Made by the engine for each request. */
  constructor(
    native: Request,
    server: BunServer | undefined,
    shared: RequestShared,
    peer?: string,
  ) {
    this.native = native;
    this.peer = peer;
    this.method = native.method;
    this.url = targetOf(native.url);
    this.bunServer = server;
    this.#shared = shared;
  }

  /**
   * Aborts `abort` when the client goes away before the answer or the shutdown's deadline
   * passes; nothing once the request is answered. Internal to Keelson (`c.signal`).
   */
  keelsonFollow(abort: AbortController): void {
    if (this.#done) return;
    const deadline = this.#shared.deadline;
    if (deadline.aborted) {
      abort.abort(deadline.reason);
      return;
    }
    const gone = this.native.signal;
    if (gone.aborted) {
      abort.abort(new Error('client closed the connection'));
      return;
    }
    const onDeadline = () => abort.abort(deadline.reason);
    const onGone = () => abort.abort(new Error('client closed the connection'));
    deadline.addEventListener('abort', onDeadline, { once: true });
    gone.addEventListener('abort', onGone, { once: true });
    this.#following = abort;
    this.#unfollow = () => {
      deadline.removeEventListener('abort', onDeadline);
      gone.removeEventListener('abort', onGone);
    };
  }

  /** Aborts the context's signal, if one is followed: the request is cut off. Internal to Keelson. */
  cutOffWith(reason: Error): void {
    this.#following?.abort(reason);
  }

  /** The answer is made: the context's signal no longer follows the client. Internal to Keelson. */
  finished(): void {
    this.#done = true;
    this.#unfollow?.();
  }

  /** The headers, lower-case names: made at the first read (most requests need a few only). */
  get headers(): PlainHeaders {
    this.#headers ??= plainHeaders(this.native);
    return this.#headers;
  }

  /** One header (repeats joined by `, `), without making the whole object. */
  header(name: string): string | undefined {
    if (this.#headers === undefined) return this.native.headers.get(name) ?? undefined;
    const value = this.#headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** The client's address (through the trusted proxies, when `trustProxy` is set). */
  get ip(): string {
    this.#ip ??= this.#shared.addressOf(this);
    return this.#ip;
  }

  /** The host the client asked for: `X-Forwarded-Host` from a trusted proxy, else `Host`. */
  get host(): string {
    const forwarded = this.header('x-forwarded-host');
    if (forwarded && this.#shared.trustsPeer(this)) return lastEntry(forwarded);
    return this.header('host') ?? '';
  }

  /** The host the client asked for, without its port. */
  get hostname(): string {
    return this.host.replace(/:\d+$/, '');
  }

  /** The port the client asked for, when its host names one. */
  get port(): number | null {
    const m = /:(\d+)$/.exec(this.host);
    return m ? Number(m[1]) : null;
  }

  /** `X-Forwarded-Proto` from a trusted proxy, else `http` (Bun.serve here speaks plain HTTP). */
  get protocol(): string {
    const forwarded = this.header('x-forwarded-proto');
    if (forwarded && this.#shared.trustsPeer(this)) return lastEntry(forwarded);
    return 'http';
  }

  /** The route the request matched, as Fastify names it. */
  get routeOptions(): { url: string | undefined } {
    return { url: this.keelsonRoute ?? undefined };
  }

  /**
   * What Keelson reads of Node's request where it must (the headers in the order received, the
   * peer's address); Bun joins repeated headers, so a repeat is seen as one.
   */
  get raw(): {
    rawHeaders: string[];
    socket: { remoteAddress: string; destroyed: boolean };
    httpVersion: string;
    complete: boolean;
  } {
    const rawHeaders: string[] = [];
    for (const [name, value] of Object.entries(this.headers)) {
      if (Array.isArray(value)) for (const v of value) rawHeaders.push(name, v);
      else if (value !== undefined) rawHeaders.push(name, value);
    }
    const remoteAddress = peerOf(this);
    return {
      rawHeaders,
      socket: { remoteAddress, destroyed: false },
      httpVersion: '1.1',
      complete: true,
    };
  }

  /** What the cookies feature reads of Fastify's `request.server`: its cookie parser. */
  get server(): { parseCookie(header: string): Record<string, string | undefined> } {
    return this.#shared.cookieParser;
  }

  /** Checks a signed cookie's value, as @fastify/cookie's `unsignCookie`. */
  unsignCookie(value: string): { valid: boolean; value: string | null } {
    const unsign = this.#shared.cookies.unsign;
    if (!unsign)
      throw new Error('a signed cookie needs a secret: pass cookies: { secret } to new App()');
    return unsign(value);
  }
}

/** The headers of `native` as a plain object: Bun's own `toJSON()` when it has one. */
export function plainHeaders(native: Request): PlainHeaders {
  const headers = native.headers as Headers & { toJSON?: () => PlainHeaders };
  if (typeof headers.toJSON === 'function') return headers.toJSON();
  const out: PlainHeaders = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  const cookies = headers.getSetCookie?.();
  if (cookies?.length) out['set-cookie'] = cookies;
  return out;
}

/** The request target (path and query) of an absolute URL as `Request.url` gives it. */
export function targetOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  return slash === -1 ? '/' : url.slice(slash);
}
