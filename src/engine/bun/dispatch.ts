/**
 * One request on the Bun engine, in the order the Fastify engine runs it: request id, span,
 * CORS, routing (404/405 and plain `OPTIONS` answered as there), the body read before the
 * route's chain (or when its endpoint is reached, for a route whose middleware runs first), the
 * route, and every answer and error through the one answer path.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noopTracer } from '../../contracts.js';
import { toProblem } from '../../errors/index.js';
import { pathOf, shownPath } from '../../request/request-state.js';
import { BODY_ABANDONED } from '../../routing/before-body.js';
import type { AppRuntime } from '../../routing/runtime.js';
import { type AnswerPath, errorPayload, sendProblem, UNMATCHED_ROUTE } from '../answer.js';
import { answerError, answerUnrouted, type MethodIndex } from '../errors.js';
import { requestIdFor } from '../request-id.js';
import { serverSpanAttributes } from '../span-attributes.js';
import { hasBody, readBody } from './body.js';
import type { BunServer } from './bun-types.js';
import type { Compressor } from './compressor.js';
import type { CookieJar } from './cookie-jar.js';
import type { BunCors } from './cors.js';
import { BunReply, type ReplySink } from './reply.js';
import { type AddressOf, BunRequest } from './request.js';
import { makeResponse } from './respond.js';
import type { BunRoute, BunRouter, RouteProblem } from './routes.js';

/** What the dispatcher serves with. */
export interface DispatchPlan {
  readonly answerPath: AnswerPath;
  readonly runtime: AppRuntime;
  readonly router: BunRouter;
  readonly allowed: MethodIndex;
  readonly cors: BunCors | undefined;
  /** Aborted once the shutdown has begun. */
  readonly draining: AbortSignal;
  readonly bodyLimit: number;
  /** Requests not yet answered, for the drain. */
  readonly inFlight: Set<BunReply>;
  /** The client address of a request. */
  readonly addressOf: AddressOf;
  /** Whether the request's peer is a trusted proxy. */
  readonly trustsPeer: (request: BunRequest) => boolean;
  /** Cookies, with the app's `cookies` option. */
  readonly cookies: CookieJar;
  /** Response compression; undefined when off. */
  readonly compressor: Compressor | undefined;
}

/**
 * Answers one web Request; `server` is the Bun server that received it, none under inject,
 * which may give the peer's address instead.
 */
export type Dispatch = (
  native: Request,
  server: BunServer | undefined,
  peer?: string,
) => Response | Promise<Response>;

const asFastify = (request: BunRequest) => request as unknown as FastifyRequest;
const asReply = (reply: BunReply) => reply as unknown as FastifyReply;

/** The dispatcher of an app on the Bun engine. */
export function bunDispatch(plan: DispatchPlan): Dispatch {
  const { answerPath, runtime, router, allowed, cors, inFlight } = plan;
  const idHeader = answerPath.requestIdHeader;
  const tracer = runtime.tracer === noopTracer ? undefined : runtime.tracer;
  let counter = 0;
  const shared = {
    addressOf: plan.addressOf,
    trustsPeer: plan.trustsPeer,
    deadline: runtime.shutdownDeadline,
    cookies: plan.cookies,
    cookieParser: { parseCookie: (header: string) => plan.cookies.parse(header) },
  };

  const sink: ReplySink = {
    cookies: plan.cookies,
    answer(reply, payload) {
      inFlight.delete(reply);
      const request = reply.request;
      request.finished();
      const serializers = reply.serializers;
      const serializer = serializers?.size ? serializers.get(reply.statusCode) : undefined;
      try {
        return makeResponse(plan, request, reply, payload, serializer);
      } catch (err) {
        // A payload that cannot be serialized (a bigint): a 500, through the answer path.
        request.keelsonError = err;
        const problem = toProblem(err);
        const body = errorPayload(answerPath, problem, {
          requestId: idHeader === undefined ? undefined : request.id,
          method: request.method,
          path: pathOf(request.url),
        });
        reply
          .removeHeader('content-length')
          .code(problem.status)
          .type(answerPath.errors.contentType);
        return makeResponse(plan, request, reply, body, undefined);
      }
    },
    fail(reply, error) {
      answerError(answerPath, error, asFastify(reply.request), asReply(reply));
    },
  };

  const answerProblem = (request: BunRequest, reply: BunReply, which: RouteProblem) => {
    request.keelsonRoute = UNMATCHED_ROUTE;
    const problem = toProblem({ code: which.problem, statusCode: which.status });
    const shown = shownPath(pathOf(request.url));
    problem.detail =
      which.problem === 'FST_ERR_BAD_URL'
        ? `The URL ${shown} is not valid.`
        : `A path parameter of ${shown} is too long.`;
    sendProblem(answerPath, asFastify(request), asReply(reply), problem);
  };

  const run = (request: BunRequest, reply: BunReply, route: BunRoute): void => {
    let out: unknown;
    try {
      out = route.compiled.handle(asFastify(request), asReply(reply));
    } catch (err) {
      reply.fail(err);
      return;
    }
    if (
      out !== null &&
      typeof out === 'object' &&
      typeof (out as Promise<unknown>).then === 'function'
    ) {
      (out as Promise<unknown>).then(
        (value) => {
          if (value !== undefined && value !== reply) reply.send(value);
        },
        (err: unknown) => reply.fail(err),
      );
    } else if (out !== undefined) {
      reply.send(out);
    }
  };

  return function dispatch(native, server, peer) {
    const startedAt = performance.now();
    const request = new BunRequest(native, server, shared, peer);
    request.id = idHeader
      ? requestIdFor(request.header(idHeader))
      : `req-${(++counter).toString(36)}`;
    const reply = new BunReply(sink, request, startedAt);
    inFlight.add(reply);
    const method = request.method;
    const found = router.find(method, request.url);
    const route = found && !('problem' in found.store) ? found.store : undefined;
    // A URL the router cannot take is answered before any hook, as Fastify's frameworkErrors.
    if (found !== null && route === undefined) {
      answerProblem(request, reply, found.store as RouteProblem);
      return reply.response();
    }
    if (cors) {
      const ownOptions = method === 'OPTIONS' && route !== undefined;
      const preflight =
        request.header('origin') !== undefined &&
        request.header('access-control-request-method') !== undefined;
      if (method === 'OPTIONS' && !ownOptions && !preflight) {
        answerUnrouted(answerPath, allowed, asFastify(request), asReply(reply));
        return reply.response();
      }
      // The Fastify engine routes a preflight to the CORS plugin's catch-all route: its record
      // names that route, set before the answer (and its record) is made.
      if (method === 'OPTIONS' && !ownOptions) request.keelsonRoute = '*';
      if (cors.apply(request, reply, ownOptions)) return reply.response();
    }
    // The span begins after CORS, which answers a preflight first.
    if (tracer) {
      const label = route ? `${method} ${route.pattern}` : method;
      request.keelsonSpan = tracer.start(label, {
        kind: 'server',
        headers: request.headers,
        attributes: serverSpanAttributes(asFastify(request), route?.pattern),
      });
    }
    if (found === null || route === undefined) {
      answerUnrouted(answerPath, allowed, asFastify(request), asReply(reply));
      return reply.response();
    }
    reply.serializers = route.serializers;
    request.params = found.params;
    request.query = found.searchParams;
    const compiled = route.compiled;
    if (compiled.takesBody && hasBody(request)) {
      const read = () => readBody(request, plan.bodyLimit, compiled.decode);
      if (compiled.bodyLast) {
        let reading: Promise<void> | undefined;
        // A body that cannot be read is answered at once, as the Fastify engine's parser does;
        // the middleware waiting on next() is told the request was answered without it.
        request.keelsonReadBody = () => {
          reading ??= read().catch((err: unknown) => {
            request.keelsonRoute = route.pattern;
            reply.fail(err);
            throw BODY_ABANDONED;
          });
          return reading;
        };
      } else {
        read().then(
          () => run(request, reply, route),
          (err: unknown) => {
            request.keelsonRoute = route.pattern;
            reply.fail(err);
          },
        );
        return reply.response();
      }
    }
    run(request, reply, route);
    return reply.response();
  };
}
