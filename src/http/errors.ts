import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';
import { isKError, notFound, PROBLEM_CONTENT_TYPE, toProblem } from '../errors/index.js';
import type { RouteEntry } from '../routing/table.js';
import { pathOf } from './request-state.js';

/**
 * Installs the error handler (any thrown value → problem JSON; 5xx causes kept for the log, never
 * sent) and the not-found handler (404, or 405 with `Allow` when the path exists for another method).
 */
export function installErrorHandlers(
  fastify: FastifyInstance,
  routes: readonly RouteEntry[],
): void {
  fastify.setErrorHandler(function handleError(error, request, reply) {
    const problem = toProblem(error);
    if (problem.status >= 500) {
      request.keelsonError = error;
      request.keelsonSpan?.recordError(error);
    }
    if (isKError(error) && error.headers) reply.headers(error.headers);
    return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  });

  const allowed = methodIndex(routes);
  fastify.setNotFoundHandler(function handleNotFound(request, reply) {
    const path = pathOf(request.url);
    const allow = allowed(request.method, path);
    if (allow) {
      const problem = toProblem(methodNotAllowed(request.method, path));
      return reply.code(405).header('allow', allow).type(PROBLEM_CONTENT_TYPE).send(problem);
    }
    const problem = toProblem(notFound(`No route matches ${request.method} ${path}.`));
    return reply.code(404).type(PROBLEM_CONTENT_TYPE).send(problem);
  });
}

// A client error that Fastify would raise itself; toProblem maps statusCode 405 by its phrase.
function methodNotAllowed(method: string, path: string): Error {
  return Object.assign(new Error(`${method} is not allowed on ${path}.`), {
    statusCode: 405,
    code: 'FST_ERR_METHOD_NOT_ALLOWED',
  });
}

/** Which methods a path answers, from the route table; undefined when none. */
function methodIndex(
  routes: readonly RouteEntry[],
): (method: string, path: string) => string | undefined {
  const router = FindMyWay();
  const methods = new Set<string>();
  const explicitHead = new Set(routes.filter((r) => r.method === 'HEAD').map((r) => r.path));
  for (const r of routes) {
    methods.add(r.method);
    router.on(r.method, r.path, () => {});
    // The engine answers HEAD for every GET route that has no HEAD route of its own.
    if (r.method === 'GET' && !explicitHead.has(r.path)) {
      methods.add('HEAD');
      router.on('HEAD', r.path, () => {});
    }
  }
  return (method, path) => {
    const allow: string[] = [];
    for (const m of methods) {
      if (m !== method && router.find(m as 'GET', path)) allow.push(m);
    }
    return allow.length ? allow.sort().join(', ') : undefined;
  };
}
