import type { FastifyInstance } from 'fastify';
import type { Span } from '../contracts.js';
import { type KError, notFound } from '../errors/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's span; null until the tracing hook opens one. Internal to Keelson. */
    keelsonSpan: Span | null;
    /** The error behind a 5xx answer, kept for the request-log entry. Internal to Keelson. */
    keelsonError: unknown;
    /** The pattern of the Keelson route that handled the request, or null. Internal to Keelson. */
    keelsonRoute: string | null;
    /** Set once the request's log entry and metrics record are written. Internal to Keelson. */
    keelsonRecorded: boolean;
    /** The operationId of the deprecated route that handled it, or null. Internal to Keelson. */
    keelsonDeprecated: string | null;
    /**
     * How an engine without Node's socket (the Bun engine) aborts a context's signal when the
     * client goes, the request ends or the deadline passes; null on the Fastify engine.
     * Internal to Keelson.
     */
    keelsonFollow: ((abort: AbortController) => void) | null;
    /**
     * Reads and parses the body of a request whose middleware ran first, on an engine that
     * reads bodies itself (the Bun engine); null otherwise. Internal to Keelson.
     */
    keelsonReadBody: (() => Promise<void>) | null;
  }
}

/** Declares Keelson's per-request fields up front, so every request object has one shape. */
export function decorateRequestState(fastify: FastifyInstance): void {
  fastify.decorateRequest('keelsonSpan', null);
  fastify.decorateRequest('keelsonError', null);
  fastify.decorateRequest('keelsonRoute', null);
  fastify.decorateRequest('keelsonRecorded', false);
  fastify.decorateRequest('keelsonDeprecated', null);
  fastify.decorateRequest('keelsonFollow', null);
  fastify.decorateRequest('keelsonReadBody', null);
}

/** The route label of requests that matched no route, so metric series stay bounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The longest path a log entry or a problem's detail shows; longer ones are cut. */
const SHOWN_PATH_LENGTH = 512;

/**
 * The request path without its query string. An absolute-form target (`http://host/a?b`, what
 * a client talking to a proxy sends) gives its path, `/a`.
 */
export function pathOf(url: string): string {
  // '/': origin-form, the usual case; anything else is absolute-form or garbage.
  if (url.charCodeAt(0) !== 47) url = originForm(url);
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The path as a log entry or an error detail shows it: at most SHOWN_PATH_LENGTH characters. */
export function shownPath(path: string): string {
  return path.length <= SHOWN_PATH_LENGTH
    ? path
    : `${path.slice(0, SHOWN_PATH_LENGTH)}…(${path.length} characters)`;
}

/** The 404 for a request no route matches, its path cut as `shownPath` cuts it. */
export function noRoute(method: string, url: string): KError {
  return notFound(`No route matches ${method} ${shownPath(pathOf(url))}.`);
}

function originForm(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme === -1) return url;
  const slash = url.indexOf('/', scheme + 3);
  if (slash !== -1) return url.slice(slash);
  const q = url.indexOf('?', scheme + 3);
  return q === -1 ? '/' : `/${url.slice(q)}`;
}
