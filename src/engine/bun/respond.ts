/**
 * The Response of a Bun-engine reply: the answer path's headers, the payload serialized as the
 * Fastify engine does (a route's response schema through fast-json-stringify, other values as
 * JSON, strings and bytes as they are), then the request's one log entry and metrics record.
 * @module
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { describeError } from '../../errors/describe.js';
import { EVENT_STREAM_TYPE } from '../../routing/media-type.js';
import type { AnswerPath } from '../answer.js';
import { writeRecord } from '../hooks.js';
import type { ResponseBody, ResponseHeaders } from './bun-types.js';
import type { BunReply, Serializer } from './reply.js';
import type { BunRequest } from './request.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const BYTES_TYPE = 'application/octet-stream';
const NO_BODY = new Set([204, 205, 304]);

/** What making a Response reads besides the reply. */
export interface RespondPlan {
  readonly answerPath: AnswerPath;
  /** Aborted once the shutdown has begun (answers then close their connection). */
  readonly draining: AbortSignal;
}

/** The body of `payload`, `content-type` set on the reply when it has none. */
function bodyOf(
  reply: BunReply,
  payload: unknown,
  serializer: Serializer | undefined,
): ResponseBody | null {
  if (payload === undefined) return null;
  if (typeof payload === 'string') {
    if (!reply.hasHeader('content-type')) reply.header('content-type', TEXT_TYPE);
    return payload;
  }
  if (payload instanceof Uint8Array || payload instanceof ArrayBuffer) {
    if (!reply.hasHeader('content-type')) reply.header('content-type', BYTES_TYPE);
    return payload as ResponseBody;
  }
  if (payload instanceof ReadableStream || isNodeStream(payload)) {
    if (!reply.hasHeader('content-type')) reply.header('content-type', BYTES_TYPE);
    return payload as ResponseBody;
  }
  if (!reply.hasHeader('content-type')) reply.header('content-type', JSON_TYPE);
  return serializer ? serializer(payload) : JSON.stringify(payload);
}

function isNodeStream(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { pipe?: unknown }).pipe === 'function' &&
    Symbol.asyncIterator in value
  );
}

/**
 * Makes the Response of `payload` and writes the request's record. Throws when the payload
 * cannot be serialized (the caller answers that as a 500).
 */
export function makeResponse(
  plan: RespondPlan,
  request: BunRequest,
  reply: BunReply,
  payload: unknown,
  serializer: Serializer | undefined,
): Response {
  const status = reply.statusCode;
  let body = NO_BODY.has(status) ? null : bodyOf(reply, payload, serializer);
  const fastifyRequest = request as unknown as FastifyRequest;
  // The answer path's headers (setAnswerHeaders), written straight into the reply's record.
  reply.defaults(plan.answerPath.securityHeaders);
  const idHeader = plan.answerPath.requestIdHeader;
  if (idHeader !== undefined) reply.header(idHeader, request.id);
  reply.flushCookies();
  if (plan.draining.aborted) reply.header('connection', 'close');
  if (request.method === 'HEAD' && body !== null) {
    if (typeof body === 'string') reply.header('content-length', Buffer.byteLength(body));
    body = null;
  }
  const headers = reply.responseHeaders();
  const response = new Response(body, { status, headers: headersInit(headers) });
  const record = (why?: string) =>
    writeRecord(plan.answerPath, fastifyRequest, status, performance.now() - reply.startedAt, why);
  // A streamed answer (an event stream) is logged when it ends, as on the Fastify engine.
  // A client leaving an event stream is how such a stream ends: a plain entry.
  if (body !== null && isNodeStream(body)) {
    const type = reply.getHeader('content-type');
    const events = typeof type === 'string' && type.startsWith(EVENT_STREAM_TYPE);
    whenEnded(body as Readable, events ? () => record() : record);
  } else record();
  return response;
}

/** Header pairs when a header repeats (`set-cookie`), else the record as it is. */
function headersInit(headers: Record<string, string | string[]>): ResponseHeaders {
  let repeated = false;
  for (const name in headers) if (Array.isArray(headers[name])) repeated = true;
  if (!repeated) return headers as Record<string, string>;
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) pairs.push([name, v]);
    else pairs.push([name, value]);
  }
  return pairs;
}

/** Calls `done` once `stream` has ended or failed (with why it was cut off). */
function whenEnded(stream: Readable, done: (why?: string) => void): void {
  let failure: unknown;
  stream.once('error', (err: unknown) => {
    failure = err;
  });
  stream.once('close', () => {
    done(failure === undefined ? undefined : `response cut off: ${describeError(failure)}`);
  });
}
