import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { noopTracer } from '../contracts.js';
import { describeError } from '../errors/describe.js';
import { isKError } from '../errors/kerror.js';
import type { RequestLogEntry } from '../logger/index.js';
import { answeredAtEdge, cutOffReason, markCutOff } from '../request/cut-off.js';
import { pathOf, shownPath } from '../request/request-state.js';
import type { AppRuntime } from '../routing/runtime.js';
import { type AnswerPath, type RecordRuntime, recordAnswer, UNMATCHED_ROUTE } from './answer.js';
import { forgoContinue } from './continue.js';
import { observeRequest } from './observers.js';
import { serverSpanAttributes } from './span-attributes.js';

/**
 * Installs the per-request hooks: a server span when a tracer is set, and after each response
 * one request-log entry, one metrics record and the end of the span.
 */
export function installRequestHooks(
  fastify: FastifyInstance,
  runtime: AppRuntime,
  answerPath: AnswerPath,
): void {
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

  fastify.addHook('onSend', answerGoesOut);

  fastify.addHook('onResponse', function finishRequest(request, reply, done) {
    recordRequest(answerPath, request, reply);
    done();
  });
}

/** The status logged for a request whose client left before its answer (nginx's 499). */
export const CLIENT_CLOSED_STATUS = 499;
/** Why the entry of a request whose client left before its answer ends early. */
const LEFT_BEFORE_ANSWER = 'the client closed the connection before the answer';

/**
 * An `onSend` hook: the answer is going out. A `100 Continue` still owed is never sent (reading
 * the rest of the body to drop it must not ask the client for it). An answer to a client that
 * has already gone can never finish, and the engine then runs no onResponse hook (no log line):
 * the response is ended as failed instead, which writes the request's one entry, with status
 * 499 and why. A request whose body was cut short is the route's own hook's (`closeUnreadBody`).
 */
function answerGoesOut(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
): void {
  const res = reply.raw;
  forgoContinue(res);
  if (
    res.destroyed &&
    !res.writableFinished &&
    request.raw.complete !== false &&
    res.listenerCount('error') > 0
  ) {
    markCutOff(res, LEFT_BEFORE_ANSWER);
    reply.code(CLIENT_CLOSED_STATUS);
    res.emit('error', new Error(LEFT_BEFORE_ANSWER));
  }
  done(null, payload);
}

/** What recordRequest reads of the answer path (a Pick of it, for a unit test's double). */
export type RecordedAnswers = Pick<AnswerPath, 'requestIdHeader' | 'trustProxy'> & {
  readonly runtime: RecordRuntime;
};

/**
 * The request-log entry and metrics record of an answer the engine sent; `cutOff` says why a
 * response ended before its end, when it did.
 */
export function recordRequest(
  answerPath: RecordedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  cutOff?: string,
): void {
  // A response cut off mid-stream can be reported twice (its stream closes, the shutdown
  // errors it): one entry, one record.
  if (request.keelsonRecorded || answeredAtEdge(reply.raw)) return;
  // The shutdown's mark says more than the stream watcher's guess at why a response ended.
  const why = cutOffReason(reply.raw) ?? cutOff;
  writeRecord(answerPath, request, reply.statusCode, reply.elapsedTime, why);
}

/**
 * Writes the request-log entry and metrics record of one answer (any engine) and ends its span;
 * `why` says why the response ended before its end, when it did.
 */
export function writeRecord(
  answerPath: RecordedAnswers,
  request: FastifyRequest,
  status: number,
  durationMs: number,
  why: string | undefined,
): void {
  request.keelsonRecorded = true;
  const runtime = answerPath.runtime;
  const span = request.keelsonSpan;
  const entry: RequestLogEntry = {
    method: request.method,
    path: shownPath(pathOf(request.url)),
    status,
    durationMs,
  };
  if (answerPath.requestIdHeader !== undefined) entry.requestId = request.id;
  if (answerPath.trustProxy) entry.ip = request.ip;
  if (span?.traceId) entry.traceId = span.traceId;
  if (request.keelsonDeprecated !== null) entry.deprecated = request.keelsonDeprecated;
  const error = request.keelsonError;
  if (error !== null && status >= 500) entry.error = describeError(error);
  else if (status >= 400 && isKError(error) && error.cause !== undefined) {
    entry.error = causeOf(error.cause);
  }
  if (why !== undefined) entry.error = why;
  if (runtime.observers?.length && observeRequest(runtime.observers, request, entry)) return;
  // request.routeOptions builds a new object on every read: only for requests no Keelson
  // route handled (404s, bodies the parser refused).
  recordAnswer(runtime, entry, request.keelsonRoute ?? request.routeOptions.url ?? UNMATCHED_ROUTE);

  if (span) {
    span.setAttribute('http.response.status_code', status);
    span.end();
  }
}

// A client error's log line: its cause's message, without a stack (the cause of a 409 from a
// unique violation names the constraint, the table and the query).
function causeOf(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
