import type { FastifyInstance } from 'fastify';
import type { Span } from '../contracts.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's span; null until the tracing hook opens one. Internal to Keelson. */
    keelsonSpan: Span | null;
    /** The error behind a 5xx answer, kept for the request-log entry. Internal to Keelson. */
    keelsonError: unknown;
    /** The pattern of the Keelson route that handled the request, or null. Internal to Keelson. */
    keelsonRoute: string | null;
  }
}

/** Declares Keelson's per-request fields up front, so every request object has one shape. */
export function decorateRequestState(fastify: FastifyInstance): void {
  fastify.decorateRequest('keelsonSpan', null);
  fastify.decorateRequest('keelsonError', null);
  fastify.decorateRequest('keelsonRoute', null);
}

/** The request path without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
