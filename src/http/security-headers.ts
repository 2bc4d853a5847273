import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The security headers `options` give, worked out once, or undefined when they vary per request. */
export function staticSecurityHeaders(
  options: Readonly<HelmetOptions>,
): Readonly<Record<string, string>> | undefined {
  if (hasDirectiveFunctions(options)) return undefined;
  const headers: Record<string, string> = {};
  // helmet is a Connect middleware; a stand-in response records what it sets.
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet({ ...options })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err?: unknown) => {
      failure = err;
    },
  );
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * Adds helmet's security headers to every response, errors and 404s included. They are computed
 * once at startup; only a CSP with per-request directive functions (nonces) runs helmet per request.
 */
export function installSecurityHeaders(
  fastify: FastifyInstance,
  options: Readonly<HelmetOptions>,
): void {
  const headers = staticSecurityHeaders(options);
  if (headers) {
    fastify.addHook('onRequest', function addSecurityHeaders(_request, reply, done) {
      reply.headers(headers);
      done();
    });
    return;
  }
  const middleware = helmet({ ...options });
  fastify.addHook('onRequest', function addSecurityHeaders(request, reply, done) {
    middleware(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}

function hasDirectiveFunctions(options: Readonly<HelmetOptions>): boolean {
  const csp = options.contentSecurityPolicy;
  if (!csp || typeof csp !== 'object' || !csp.directives) return false;
  for (const value of Object.values(csp.directives)) {
    if (value && typeof value === 'object' && Symbol.iterator in value) {
      for (const item of value as Iterable<unknown>) if (typeof item === 'function') return true;
    }
  }
  return false;
}
