import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type MetricsCollector, noopTracer, type Tracer } from '../contracts.js';
import { describeError } from '../errors/describe.js';
import type { Logger, RequestLogEntry } from '../logger/index.js';
import { observeRequest, type RequestObserver } from './observers.js';
import { pathOf } from './request-state.js';
import { serverSpanAttributes } from './span-attributes.js';

/** The route label of requests that matched no route, so metric series stay bounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the request hooks read at request time. */
export interface HookRuntime {
  readonly logger: Logger;
  readonly tracer: Tracer;
  readonly metrics: MetricsCollector | undefined;
  /** Paths whose requests are not logged (still counted); undefined when none are. */
  readonly requestLogExclude?: ReadonlySet<string> | undefined;
  /** In-process observers of finished requests (the dev panel); usually none. */
  readonly observers?: readonly RequestObserver[];
}

/**
 * Installs the per-request hooks: a server span when a tracer is set, and after each response
 * one request-log entry, one metrics record and the end of the span.
 */
export function installRequestHooks(fastify: FastifyInstance, runtime: HookRuntime): void {
  if (runtime.tracer !== noopTracer) {
    const tracer = runtime.tracer;
    fastify.addHook('onRequest', function startSpan(request, _reply, done) {
      const route = request.routeOptions.url;
      request.keelsonSpan = tracer.start(route ? `${request.method} ${route}` : request.method, {
        kind: 'server',
        headers: request.headers,
        attributes: serverSpanAttributes(request, route),
      });
      done();
    });
  }

  fastify.addHook('onResponse', function finishRequest(request, reply, done) {
    recordRequest(runtime, request, reply);
    done();
  });
}

function recordRequest(runtime: HookRuntime, request: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  const durationMs = reply.elapsedTime;
  const span = request.keelsonSpan;
  const entry: RequestLogEntry = {
    method: request.method,
    path: pathOf(request.url),
    status,
    durationMs,
  };
  if (span?.traceId) entry.traceId = span.traceId;
  const error = request.keelsonError;
  if (error !== null && status >= 500) entry.error = describeError(error);
  if (runtime.observers?.length && observeRequest(runtime.observers, request, entry)) return;
  if (runtime.requestLogExclude?.has(entry.path) !== true) runtime.logger.request(entry);

  const metrics = runtime.metrics;
  if (metrics) {
    try {
      metrics.recordRequest({
        method: request.method,
        // request.routeOptions builds a new object on every read: only for requests no Keelson
        // route handled (404s, bodies the parser refused).
        route: request.keelsonRoute ?? request.routeOptions.url ?? UNMATCHED_ROUTE,
        statusCode: status,
        durationMs,
      });
    } catch (err) {
      runtime.logger.warn('metrics collector failed: %s', describeError(err));
    }
  }

  if (span) {
    span.setAttribute('http.response.status_code', status);
    span.end();
  }
}
