/**
 * The one answer path: what every answer the server writes shares, whoever writes it (a route,
 * the error handler, the router, Node's parser): the request id, the security headers, the
 * error body, one request-log entry and one metrics record.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestMetric } from '../contracts.js';
import { describeError } from '../errors/describe.js';
import {
  type ErrorContext,
  type ErrorsOptions,
  type ResolvedErrors,
  resolveErrors,
} from '../errors/error-body.js';
import type { ProblemDetails } from '../errors/index.js';
import type { RequestLogEntry } from '../logger/index.js';
import { pathOf } from '../request/request-state.js';
import type { AppRuntime } from '../routing/runtime.js';
import { type RequestIdOptions, requestIdHeaderOf } from './request-id.js';
import type { SecurityHeaders } from './security-headers.js';

export { UNMATCHED_ROUTE } from '../request/request-state.js';

/**
 * The part of the runtime that one request's record reads (a Pick of AppRuntime, observers and
 * exclusions optional), so a unit test of the record gives only these.
 */
export type RecordRuntime = Pick<AppRuntime, 'logger' | 'metrics'> &
  Partial<Pick<AppRuntime, 'observers' | 'requestLogExclude'>>;

/** The app's answer path, worked out once when the app is created. */
export interface AnswerPath {
  /** The app's runtime: the logger and the metrics collector are read at request time. */
  readonly runtime: AppRuntime;
  /** The request-id header, lower case; undefined when request ids are off. */
  readonly requestIdHeader: string | undefined;
  /** The security headers every answer carries, as `[name, value]` pairs. */
  readonly securityHeaders: readonly (readonly [string, string])[];
  /** How error bodies are shaped. */
  readonly errors: ResolvedErrors;
  /** True when the app trusts a proxy: the request log then writes the client's address. */
  readonly trustProxy: boolean;
}

/** The App's options the answer path is made from. */
export interface AnswerOptions {
  /** The `requestId` option. */
  readonly requestId?: RequestIdOptions | false | undefined;
  /** The `errors` option. */
  readonly errors?: ErrorsOptions | undefined;
  /** The `trustProxy` option; anything but undefined and false trusts some proxy. */
  readonly trustProxy?: unknown;
}

/** The answer path of an app, from its options. @throws TypeError naming a bad option. */
export function answerPathFor(
  options: AnswerOptions,
  runtime: AppRuntime,
  security: SecurityHeaders,
): AnswerPath {
  return {
    runtime,
    requestIdHeader: requestIdHeaderOf(options.requestId),
    securityHeaders: Object.entries(security.api),
    errors: resolveErrors(options.errors),
    trustProxy: options.trustProxy !== undefined && options.trustProxy !== false,
  };
}

/** The body of an error answer: the problem, with its request id, through the `errors` hook. */
export function errorPayload(
  answerPath: AnswerPath,
  problem: ProblemDetails,
  c: ErrorContext,
): string {
  if (c.requestId !== undefined) problem.requestId = c.requestId;
  const shape = answerPath.errors.body;
  if (shape) {
    try {
      const shaped = JSON.stringify(shape(problem, c));
      if (typeof shaped === 'string') return shaped;
      answerPath.runtime.logger.warn('errors.body returned no JSON value for a %d', problem.status);
    } catch (err) {
      answerPath.runtime.logger.warn('errors.body failed: %s', describeError(err));
    }
  }
  return JSON.stringify(problem);
}

/** The context the `errors` hook gets for an engine request. */
function errorContextOf(answerPath: AnswerPath, request: FastifyRequest): ErrorContext {
  return {
    requestId: answerPath.requestIdHeader === undefined ? undefined : request.id,
    method: request.method,
    path: pathOf(request.url),
  };
}

/** Sends `problem` as the answer, shaped by the app's `errors` option. */
export function sendProblem(
  answerPath: AnswerPath,
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ProblemDetails,
): FastifyReply {
  const payload = errorPayload(answerPath, problem, errorContextOf(answerPath, request));
  return reply.code(problem.status).type(answerPath.errors.contentType).send(payload);
}

/** Writes the request-log entry of one answer and its metrics record under `route`. */
export function recordAnswer(runtime: RecordRuntime, entry: RequestLogEntry, route: string): void {
  if (runtime.requestLogExclude?.has(entry.path) !== true) runtime.logger.request(entry);
  const metrics = runtime.metrics;
  if (!metrics) return;
  try {
    const metric: RequestMetric = {
      method: entry.method,
      route,
      statusCode: entry.status,
      durationMs: entry.durationMs,
    };
    if (entry.deprecated !== undefined) metric.deprecated = entry.deprecated;
    metrics.recordRequest(metric);
  } catch (err) {
    runtime.logger.warn('metrics collector failed: %s', describeError(err));
  }
}
