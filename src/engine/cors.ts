/**
 * CORS on @fastify/cors, with Keelson's defaults: every method the app routes is allowed, and
 * an `OPTIONS` that is not a preflight gets an answer of its own instead of the plugin's 400.
 * @module
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { RouteEntry } from '../routing/table.js';
import type { AnswerPath } from './answer.js';
import { answerUnrouted, type MethodIndex } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors's options for one route (it reads them from the route's config). */
    cors?: FastifyCorsOptions;
  }
}

/** The methods the app routes, HEAD included for GET routes: the default of `cors.methods`. */
export function routedMethods(routes: readonly RouteEntry[]): string[] {
  const methods = new Set<string>();
  for (const r of routes) {
    methods.add(r.method);
    if (r.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}

/**
 * Registers @fastify/cors with `options`, `methods` defaulting to the routed methods. An `OPTIONS`
 * without `Origin` and `Access-Control-Request-Method` is no preflight: it is answered like any
 * request no route matched (204 with `Allow` on a routed path, 404 elsewhere), before the plugin
 * would refuse it.
 */
export async function installCors(
  fastify: FastifyInstance,
  options: FastifyCorsOptions,
  routes: readonly RouteEntry[],
  answerPath: AnswerPath,
  allowed: MethodIndex,
): Promise<void> {
  fastify.addHook('onRequest', function answerPlainOptions(request, reply, done) {
    if (request.method !== 'OPTIONS') return done();
    const headers = request.headers;
    if (headers.origin !== undefined && headers['access-control-request-method'] !== undefined) {
      return done();
    }
    // The plugin's catch-all OPTIONS route matched: the app has no OPTIONS route of its own here.
    if (request.routeOptions.url !== '*') return done();
    answerUnrouted(answerPath, allowed, request, reply);
  });
  // Loaded with the Fastify engine only.
  const cors = (await import('@fastify/cors')).default;
  await fastify.register(cors, {
    ...options,
    methods: options.methods ?? routedMethods(routes),
    // Plain OPTIONS are answered above; on a path with an OPTIONS route of the app's own, the
    // plugin then answers 204 instead of a text/plain 400.
    strictPreflight: false,
  });
}
