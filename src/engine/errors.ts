import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { isKError, type KError, keelsonError, toProblem } from '../errors/index.js';
import { noRoute, pathOf, shownPath } from '../request/request-state.js';
import type { RouteEntry } from '../routing/table.js';
import { type AnswerPath, sendProblem, UNMATCHED_ROUTE } from './answer.js';

/**
 * Installs the error handler (any thrown value → problem JSON; 5xx errors and KError causes kept
 * for the log, never sent) and the not-found handler (404, or 405 with `Allow` when the path exists for another
 * method; an `OPTIONS` there is 204 with `Allow`).
 */
export function installErrorHandlers(
  fastify: FastifyInstance,
  allowed: MethodIndex,
  answerPath: AnswerPath,
): void {
  fastify.setErrorHandler(function handleError(error, request, reply) {
    return answerError(answerPath, error, request, reply);
  });

  fastify.setNotFoundHandler(function handleNotFound(request, reply) {
    return answerUnrouted(answerPath, allowed, request, reply);
  });
}

/** The problem answer to a thrown value; a 5xx error (and a KError's cause) kept for the log, never sent. */
export function answerError(
  answerPath: AnswerPath,
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const problem = toProblem(error);
  if (problem.status >= 500) {
    request.keelsonError = error;
    request.keelsonSpan?.recordError(error);
  } else if (isKError(error) && error.cause !== undefined) {
    // A client error's cause (a constraint a query violated) is for the log only.
    request.keelsonError = error;
  }
  if (isKError(error) && error.headers) reply.headers(error.headers);
  return sendProblem(answerPath, request, reply, problem);
}

/**
 * The answer to a request no route of its method matched: 204 with `Allow` for an `OPTIONS` on a
 * routed path, 405 with `Allow` for another method there, else 404.
 */
export function answerUnrouted(
  answerPath: AnswerPath,
  allowed: MethodIndex,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const path = pathOf(request.url);
  const found = allowed(request.method, path);
  if (found) {
    request.keelsonRoute = found.route;
    reply.header('allow', found.allow);
    if (request.method === 'OPTIONS') return reply.code(204).send();
    const problem = toProblem(methodNotAllowed(request.method, shownPath(path)));
    return sendProblem(answerPath, request, reply, problem);
  }
  // Not the pattern of the catch-all route a plugin (CORS) may have matched.
  request.keelsonRoute = UNMATCHED_ROUTE;
  const problem = toProblem(noRoute(request.method, request.url));
  return sendProblem(answerPath, request, reply, problem);
}

function methodNotAllowed(method: string, path: string): KError {
  return keelsonError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}.`);
}

/** The methods a path answers (`Allow`, `OPTIONS` included) and its route pattern. */
export type MethodIndex = (
  method: string,
  path: string,
) => { allow: string; route: string } | undefined;

/** Which methods a path answers, from the route table; undefined when none. */
export function methodIndex(routes: readonly RouteEntry[]): MethodIndex {
  const router = FindMyWay();
  const methods = new Set<string>();
  const explicitHead = new Set(routes.filter((r) => r.method === 'HEAD').map((r) => r.path));
  for (const r of routes) {
    methods.add(r.method);
    router.on(r.method, r.path, () => {}, { route: r.path });
    // The engine answers HEAD for every GET route that has no HEAD route of its own.
    if (r.method === 'GET' && !explicitHead.has(r.path)) {
      methods.add('HEAD');
      router.on('HEAD', r.path, () => {}, { route: r.path });
    }
  }
  return (method, path) => {
    const allow: string[] = [];
    let route: string | undefined;
    for (const m of methods) {
      if (m === method) continue;
      const found = router.find(m as 'GET', path);
      if (found) {
        allow.push(m);
        route ??= (found.store as { route: string }).route;
      }
    }
    if (route === undefined) return undefined;
    if (method === 'OPTIONS') allow.push('OPTIONS');
    return { allow: allow.sort().join(', '), route };
  };
}
