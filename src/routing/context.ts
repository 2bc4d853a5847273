import type { FastifyReply, FastifyRequest } from 'fastify';
import { NOOP_SPAN, type Span } from '../contracts.js';
import type { CookieOptions } from '../cookies/index.js';
import type { Logger } from '../logger/index.js';
import { negotiateLanguage } from '../request/accept-language.js';
import type { ServerSentEvent, SseOptions } from '../sse/index.js';
import { contextFeatures } from './context-features.js';
import { checkHeader, contentDisposition } from './header-value.js';
import type { AppRuntime } from './runtime.js';
import type { BodyFor, RawHeaders, RawQuery, Responses, Sent } from './schema-types.js';

/** The key of the method that aborts a context's signal; internal to Keelson. */
export const ABORT_REQUEST: unique symbol = Symbol('keelson.abortRequest');

/**
 * The context a handler and its middleware receive: the validated, typed request parts,
 * the engine's own request and reply, and reply helpers.
 */
export class Context<
  P = Record<string, string>,
  Q = RawQuery,
  H = RawHeaders,
  B = unknown,
  R extends Responses = Responses,
  U = unknown,
  K = Record<string, string | undefined>,
> {
  /** Path parameters, validated when the route has a `params` schema. */
  params: P;
  /** Query parameters, validated when the route has a `query` schema. */
  query: Q;

  /** The request body, validated when the route has a `body` schema. */
  body: B;
  /** The engine's request. */
  readonly request: FastifyRequest;
  /** The engine's reply. */
  readonly reply: FastifyReply;
  /**
   * Who the request is from, set by the guard that let it through (`jwt()`, `bearer()`, …);
   * typed by the guard when the route is built with `guarded(guard).get(…)`.
   */
  user: U;
  /** The request's span (a no-op span unless a tracer is set). */
  span: Span = NOOP_SPAN;
  readonly #runtime: AppRuntime;
  #abort: AbortController | undefined;
  #lang: string | undefined;
  #log: Logger | undefined;
  #ended: unknown;
  #cookies: K | undefined;
  #headers: H | undefined;

  /** Made by the App for each request; not for service code. */
  constructor(request: FastifyRequest, reply: FastifyReply, runtime: AppRuntime) {
    this.request = request;
    this.reply = reply;
    this.#runtime = runtime;
    this.params = request.params as P;
    this.query = request.query as Q;
    this.body = request.body as B;
    this.user = undefined as U;
  }

  /** Request headers, validated when the route has a `headers` schema. */
  get headers(): H {
    this.#headers ??= this.request.headers as H;
    return this.#headers;
  }

  set headers(value: H) {
    this.#headers = value;
  }

  /** The request's id: the `x-request-id` header when valid, else a fresh one. */
  get requestId(): string {
    return this.request.id;
  }

  /** The app's logger bound to this request: its entries carry `requestId` (and `traceId`). */
  get log(): Logger {
    if (this.#log === undefined) {
      const traceId = this.span.traceId;
      this.#log = this.#runtime.logger.with(
        traceId === undefined
          ? { requestId: this.requestId }
          : { requestId: this.requestId, traceId },
      );
    }
    return this.#log;
  }

  /**
   * Aborts when the client goes away before the response is complete, when the route's
   * `timeoutMs` passes (reason: a `TIMEOUT` KError) and when the shutdown's deadline passes.
   */
  get signal(): AbortSignal {
    if (!this.#abort) {
      const abort = new AbortController();
      this.#abort = abort;
      if (this.#ended !== undefined) abort.abort(this.#ended);
      else if (this.request.keelsonFollow) this.request.keelsonFollow(abort);
      else if (this.reply.raw.writableEnded) return abort.signal;
      // The connection, not the request stream: a request whose body was read is destroyed too.
      else if (this.request.raw.socket?.destroyed === true) {
        abort.abort(new Error('client closed the connection'));
      } else this.#follow(abort, this.reply.raw);
    }
    return this.#abort.signal;
  }

  /** Aborts `c.signal` with `reason` (the route's timeout). Internal to Keelson. */
  [ABORT_REQUEST](reason: unknown): void {
    this.#ended ??= reason;
    this.#abort?.abort(reason);
  }

  // The shutdown deadline is app-wide: its listener must go when the request is over.
  // `writableEnded` (the answer was handed over), not `writableFinished`: under `inject()` the
  // response never reports finished, and a normal 200 would abort the handler's signal.
  #follow(abort: AbortController, raw: FastifyReply['raw']): void {
    const deadline = this.#runtime.shutdownDeadline;
    if (deadline.aborted) {
      abort.abort(deadline.reason);
      return;
    }
    const onDeadline = () => abort.abort(deadline.reason);
    deadline.addEventListener('abort', onDeadline, { once: true });
    raw.once('close', () => {
      deadline.removeEventListener('abort', onDeadline);
      if (!raw.writableEnded) abort.abort(new Error('client closed the connection'));
    });
  }

  /** The locale for this request: `Accept-Language` matched against the translator's locales. */
  get lang(): string {
    if (this.#lang === undefined) {
      const header = this.request.headers['accept-language'];
      const locales = this.#runtime.translator?.locales() ?? [];
      this.#lang = negotiateLanguage(header, locales);
    }
    return this.#lang;
  }

  /** Translates `key` into this request's locale; returns the key when no translator is set. */
  t(key: string, ...args: unknown[]): string {
    const tr = this.#runtime.translator;
    return tr ? tr.t(this.lang, key, ...args) : key;
  }

  /** Answers 201 Created with `body`. */
  created(body: BodyFor<R, 201>): Sent {
    this.reply.code(201);
    return body as unknown as Sent;
  }

  /** Answers 204 No Content. */
  noContent(): Sent {
    this.reply.code(204);
    return undefined as unknown as Sent;
  }

  /** Answers with `code` and `body`, checked against the schema declared for `code`. */
  status<S extends number>(code: S, body: BodyFor<R, S>): Sent {
    this.reply.code(code);
    return body as unknown as Sent;
  }

  /**
   * Answers with a `text/event-stream` fed by `source`; the iteration stops when the client goes
   * away or the app shuts down. The client's `Last-Event-ID` is in `c.headers['last-event-id']`.
   * @example return c.sse(ticks()) // async function* ticks() { yield { data: { n: 1 } } }
   */
  sse(source: AsyncIterable<ServerSentEvent>, options?: SseOptions): Sent {
    return contextFeatures().sendEventStream(this, this.#runtime, source, options);
  }

  /** The request's cookies: parsed at the first read; validated when the route has a `cookies` schema. */
  get cookies(): K {
    return this.#cookies ?? (contextFeatures().readCookies(this.request) as K);
  }

  set cookies(value: K) {
    this.#cookies = value;
  }

  /**
   * Sets a cookie. Defaults: HttpOnly, SameSite=Lax, Path=/, Secure in production;
   * `{ signed: true }` signs it with the app's `cookies.secret`.
   */
  setCookie(name: string, value: string, options?: CookieOptions): this {
    contextFeatures().setCookie(this.reply, name, value, options);
    return this;
  }

  /** Deletes a cookie on the client; give the `path`/`domain` it was set with, if not the defaults. */
  clearCookie(name: string, options?: Pick<CookieOptions, 'domain' | 'path'>): this {
    contextFeatures().clearCookie(this.reply, name, options);
    return this;
  }

  /** The value of a signed cookie, or undefined when it is absent, unsigned or tampered with. */
  signedCookie(name: string): string | undefined {
    return contextFeatures().signedCookie(this.request, this.reply, name);
  }

  /**
   * Sets a response header. A name that is no HTTP token, or a value with CR, LF, another
   * control character or anything past U+00FF, throws a TypeError naming the header here.
   * @example c.header('cache-control', 'no-store')
   */
  header(name: string, value: string | number | readonly string[]): this {
    checkHeader(name, value);
    this.reply.header(name, value);
    return this;
  }

  /**
   * Makes the answer a download: `Content-Disposition: attachment`, with `filename` in any
   * script (an ASCII `filename` plus the RFC 6266 `filename*` in UTF-8).
   * @example c.attachment('résumé.pdf').header('content-type', 'application/pdf'); return pdf;
   */
  attachment(filename?: string): this {
    this.reply.header('content-disposition', contentDisposition(filename));
    return this;
  }
}
