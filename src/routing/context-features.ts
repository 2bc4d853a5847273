/**
 * The features behind the Context's cookie and event-stream methods (`c.cookies`,
 * `c.setCookie`, `c.sse()`...), reached through this table so that routing never imports them:
 * `src/features.ts` fills it when the package entry hands out the App. Only types of the
 * features are named here.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieOptions } from '../cookies/index.js';
import type { ServerSentEvent } from '../sse/format.js';
import type { SseOptions, StreamTarget } from '../sse/send.js';
import type { AppRuntime } from './runtime.js';
import type { Sent } from './schema-types.js';

/** What the Context asks of the cookie and event-stream features. */
export interface ContextFeatures {
  /** The request's cookies, parsed at the first call. */
  readCookies(request: FastifyRequest): Record<string, string | undefined>;
  /** Adds a `Set-Cookie` to the reply. */
  setCookie(reply: FastifyReply, name: string, value: string, options?: CookieOptions): void;
  /** Adds a `Set-Cookie` that deletes `name`. */
  clearCookie(
    reply: FastifyReply,
    name: string,
    options?: Pick<CookieOptions, 'domain' | 'path'>,
  ): void;
  /** The value of a signed cookie, or undefined when absent, unsigned or tampered with. */
  signedCookie(request: FastifyRequest, reply: FastifyReply, name: string): string | undefined;
  /** Answers with an event stream fed by `source`. */
  sendEventStream(
    c: StreamTarget,
    runtime: AppRuntime,
    source: AsyncIterable<ServerSentEvent>,
    options?: SseOptions,
  ): Sent;
}

let installed: ContextFeatures | undefined;

/** Fills the table; called once, by `src/features.ts`. */
export function installContextFeatures(features: ContextFeatures): void {
  installed = features;
}

/** The table. @throws Error when nothing filled it (the App was imported past the entry) */
export function contextFeatures(): ContextFeatures {
  if (installed === undefined) {
    throw new Error("Keelson's features are not installed: import App from 'keelson'");
  }
  return installed;
}
