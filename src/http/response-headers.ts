import type { FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import helmet from 'helmet';
import { staticSecurityHeaders } from './security-headers.js';

/** What the response-header hook adds. */
export interface ResponseHeaderOptions {
  /** helmet's options, or false for no security headers. */
  readonly security: Readonly<HelmetOptions> | false;
  /** True once the graceful shutdown has begun. */
  readonly isDraining: () => boolean;
}

/**
 * One `onSend` hook for the headers Keelson adds to every answer, errors and 404s included:
 * - helmet's security headers, computed once at startup (only CSP directive functions, such as
 *   nonces, run helmet per request);
 * - `Connection: close` once the drain has begun, so a keep-alive client opens a new connection
 *   (and is refused) instead of sending its next request on a socket the drain is about to close.
 *   The engine already does this for requests that arrive during the drain; this covers those in
 *   flight when it began.
 * One hook rather than two: each hook is a measurable share of a small request's cost.
 */
export function installResponseHeaders(
  fastify: FastifyInstance,
  options: ResponseHeaderOptions,
): void {
  const { security, isDraining } = options;
  const headers = security === false ? undefined : staticSecurityHeaders(security);
  if (security !== false && headers === undefined) {
    const middleware = helmet({ ...security });
    fastify.addHook('onRequest', function addDynamicSecurityHeaders(request, reply, done) {
      middleware(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    });
  }
  fastify.addHook('onSend', function addResponseHeaders(request, reply, payload, done) {
    if (headers) reply.headers(headers);
    if (isDraining() && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    done(null, payload);
  });
}
