/**
 * The reply object of the Bun engine: what `c.reply` is there, with the names of Fastify's reply
 * that Keelson and service code use (`code`, `statusCode`, `header`, `headers`, `getHeader`,
 * `getHeaders`, `hasHeader`, `removeHeader`, `type`, `send`, `sent`). `send` hands the payload to
 * the engine, which makes the web `Response`.
 * @module
 */
import { refuseOnBunEngine } from '../../runtime.js';
import type { CookieJar, JarCookieOptions, PendingCookies } from './cookie-jar.js';
import type { BunRequest } from './request.js';

/** Serializes a payload for one status; from a route's response schema. */
export type Serializer = (payload: unknown) => string;

/** A header value as set on a reply. */
export type HeaderValue = string | number | readonly string[];

/** What the engine does with a sent reply: an error is answered as a problem, else sent. */
export interface ReplySink {
  /** Cookies, with the app's `cookies` option. */
  readonly cookies: CookieJar;
  /** Makes the Response of `payload`; never throws (a failure becomes a 500). */
  answer(reply: BunReply, payload: unknown): Response;
  /** Answers `error` through the app's error path (it calls `send` again with the problem). */
  fail(reply: BunReply, error: unknown): void;
}

/** One reply on the Bun engine. */
export class BunReply {
  /** The status code. */
  statusCode = 200;
  /** When the request arrived, `performance.now()` ms. */
  readonly startedAt: number;
  /** The request answered. */
  readonly request: BunRequest;
  /** The serializers of the route that matched, by status; none before routing. */
  serializers: ReadonlyMap<number, Serializer> | undefined = undefined;
  readonly #headers: Record<string, string | string[]> = {};
  readonly #sink: ReplySink;
  #sent = false;
  #response: Response | undefined;
  #waiting: ((response: Response) => void) | undefined;
  #cookies: PendingCookies | undefined;

  /** Made by the engine for each request. */
  constructor(sink: ReplySink, request: BunRequest, startedAt: number) {
    this.#sink = sink;
    this.request = request;
    this.startedAt = startedAt;
  }

  /** True once the answer is made. */
  get sent(): boolean {
    return this.#sent;
  }

  /** Milliseconds since the request arrived. */
  get elapsedTime(): number {
    return performance.now() - this.startedAt;
  }

  /** Sets the status code. */
  code(status: number): this {
    this.statusCode = status;
    return this;
  }

  /** Sets the status code (Fastify's other name). */
  status(status: number): this {
    return this.code(status);
  }

  /** Sets a header (lower-cased); `set-cookie` adds to those set before. */
  header(name: string, value: HeaderValue): this {
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.map(String) : String(value);
    if (key === 'set-cookie' && this.#headers[key] !== undefined) {
      this.#headers[key] = [this.#headers[key]!, text].flat();
    } else {
      this.#headers[key] = text as string | string[];
    }
    return this;
  }

  /** Sets several headers. */
  headers(values: Readonly<Record<string, HeaderValue>>): this {
    for (const name of Object.keys(values)) this.header(name, values[name]!);
    return this;
  }

  /** The value of a header, or undefined. */
  getHeader(name: string): string | string[] | undefined {
    return this.#headers[name.toLowerCase()];
  }

  /** A copy of every header set. */
  getHeaders(): Record<string, string | string[]> {
    return { ...this.#headers };
  }

  /** True when the header is set. */
  hasHeader(name: string): boolean {
    return this.#headers[name.toLowerCase()] !== undefined;
  }

  /** Removes a header. */
  removeHeader(name: string): this {
    delete this.#headers[name.toLowerCase()];
    return this;
  }

  /** Answers `code` (302 by default) with `Location: url`. */
  redirect(url: string, code = 302): this {
    return this.header('location', url).code(code).send();
  }

  /** Sets `content-type`. */
  type(contentType: string): this {
    return this.header('content-type', contentType);
  }

  /** Answers with `payload`; an Error is answered as a problem. Later calls do nothing. */
  send(payload?: unknown): this {
    if (this.#sent) return this;
    if (payload instanceof Error) return this.fail(payload);
    this.#sent = true;
    const response = this.#sink.answer(this, payload);
    this.#response = response;
    this.#waiting?.(response);
    return this;
  }

  /** Answers `error`, whatever was thrown, as a problem through the app's error path. */
  fail(error: unknown): this {
    if (!this.#sent) this.#sink.fail(this, error);
    return this;
  }

  /**
   * Ends a reply nobody will receive (its connection is being closed at shutdown): logged once,
   * as a 503 with `why`, what a request refused at shutdown would get. Internal to Keelson.
   */
  cut(why: string): void {
    if (this.#sent) return;
    this.#sent = true;
    this.statusCode = 503;
    this.request.cutOff = why;
    // The handler still running is told, as the Fastify engine's closed socket tells it.
    this.request.cutOffWith(new Error(why));
    const response = this.#sink.answer(this, undefined);
    this.#response = response;
    this.#waiting?.(response);
  }

  /** The Response once made, or a promise of it. */
  response(): Response | Promise<Response> {
    if (this.#response) return this.#response;
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  /** Sets each of `entries` (lower-case names) the reply has not set itself. */
  defaults(entries: readonly (readonly [string, string])[]): void {
    const headers = this.#headers;
    for (let i = 0; i < entries.length; i++) {
      const [name, value] = entries[i]!;
      if (headers[name] === undefined) headers[name] = value;
    }
  }

  /** The headers as a Response takes them. */
  responseHeaders(): Record<string, string | string[]> {
    return this.#headers;
  }

  /** Adds a `Set-Cookie`, the app's defaults merged into `options`. */
  setCookie(name: string, value: string, options?: JarCookieOptions): this {
    this.#cookies ??= new Map();
    this.#sink.cookies.set(this.#cookies, name, value, options);
    return this;
  }

  /** Adds a `Set-Cookie` that deletes `name`. */
  clearCookie(name: string, options?: Pick<JarCookieOptions, 'domain' | 'path'>): this {
    this.#cookies ??= new Map();
    this.#sink.cookies.clear(this.#cookies, name, options);
    return this;
  }

  /** Present when the app signs cookies (`cookies: { secret }`), as on the Fastify engine. */
  get signCookie(): ((value: string) => string) | undefined {
    return this.#sink.cookies.sign;
  }

  /** Moves the cookies set into `set-cookie`; called once, as the Response is made. */
  flushCookies(): void {
    const pending = this.#cookies;
    if (!pending?.size) return;
    const before = this.#headers['set-cookie'];
    this.#headers['set-cookie'] = [
      ...(before === undefined ? [] : [before].flat()),
      ...pending.values(),
    ];
    pending.clear();
  }

  /** Taking the raw response over is not possible on the Bun engine. */
  hijack(): never {
    return refuseOnBunEngine('reply.hijack()');
  }
}
