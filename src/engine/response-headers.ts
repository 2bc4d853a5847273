import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { describeError } from '../errors/describe.js';
import { EVENT_STREAM_TYPE } from '../routing/media-type.js';
import type { AnswerPath } from './answer.js';
import { recordRequest } from './hooks.js';
import type { SecurityHeaders } from './security-headers.js';

/** What the response-header hook adds. */
export interface ResponseHeaderOptions {
  /** The app's security headers. */
  readonly security: SecurityHeaders;
  /** True once the graceful shutdown has begun. */
  readonly isDraining: () => boolean;
}

/**
 * Sets the headers every answer carries: the security headers (a header the handler set itself
 * wins: the docs page sets the fuller set a page needs) and the request id.
 */
export function setAnswerHeaders(
  answerPath: AnswerPath,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const entries = answerPath.securityHeaders;
  for (let i = 0; i < entries.length; i++) {
    const [name, value] = entries[i]!;
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
  if (answerPath.requestIdHeader !== undefined)
    reply.header(answerPath.requestIdHeader, request.id);
}

/**
 * One `onSend` hook for the headers Keelson adds to every answer, errors and 404s included:
 * - the security headers, computed once at startup, and the request id (setAnswerHeaders);
 * - `Connection: close` once the drain has begun, so a keep-alive client opens a new connection
 *   (and is refused) instead of sending its next request on a socket the drain is about to close.
 *   The engine already does this for requests that arrive during the drain; this covers those in
 *   flight when it began.
 * One hook rather than two: each hook is a measurable share of a small request's cost.
 */
export function installResponseHeaders(
  fastify: FastifyInstance,
  options: ResponseHeaderOptions,
  answerPath: AnswerPath,
): void {
  const { security, isDraining } = options;
  if (security.perRequest) {
    const middleware = helmet({ ...security.perRequest });
    fastify.addHook('onRequest', function addDynamicSecurityHeaders(request, reply, done) {
      middleware(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    });
  }
  fastify.addHook('onSend', function addResponseHeaders(request, reply, payload, done) {
    setAnswerHeaders(answerPath, request, reply);
    if (isDraining() && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    if (
      payload !== null &&
      typeof payload === 'object' &&
      typeof (payload as Readable).pipe === 'function'
    ) {
      watchStream(answerPath, request, reply, payload as Readable);
    }
    done(null, payload);
  });
}

/**
 * A streamed answer that fails midway (or whose client leaves) is destroyed, and the engine's
 * onResponse never runs for it: log and count it here, with why it was cut off.
 */
function watchStream(
  answerPath: AnswerPath,
  request: FastifyRequest,
  reply: FastifyReply,
  stream: Readable,
): void {
  let failure: unknown;
  stream.once('error', (err: unknown) => {
    failure = err;
  });
  const raw = reply.raw;
  raw.once('close', () => {
    if (raw.writableFinished) return;
    // A client leaving an event stream is how such a stream ends: a plain entry (info).
    if (failure === undefined && isEventStream(reply)) {
      recordRequest(answerPath, request, reply);
      return;
    }
    const why =
      failure === undefined
        ? 'the client closed the connection before the end of the response'
        : `response cut off: ${describeError(failure)}`;
    recordRequest(answerPath, request, reply, why);
  });
}

function isEventStream(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith(EVENT_STREAM_TYPE);
}
