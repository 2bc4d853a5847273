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
import { CLIENT_CLOSED_STATUS, LEFT_BEFORE_ANSWER, writeRecord } from '../hooks.js';
import type { ResponseBody, ResponseHeaders } from './bun-types.js';
import type { Compressor } from './compressor.js';
import type { BunReply, Serializer } from './reply.js';
import type { BunRequest } from './request.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const BYTES_TYPE = 'application/octet-stream';
// A web Response cannot carry a body with these (Fastify drops one for 204 and 304 only).
const NO_BODY = new Set([204, 205, 304]);

/** What making a Response reads besides the reply. */
export interface RespondPlan {
  readonly answerPath: AnswerPath;
  /** Aborted once the shutdown has begun (answers then close their connection). */
  readonly draining: AbortSignal;
  /** Response compression; undefined when off. */
  readonly compressor: Compressor | undefined;
}

/** True when a content type's media type (not its parameters) names JSON. */
function isJsonMedia(type: string): boolean {
  const semi = type.indexOf(';');
  return (semi === -1 ? type : type.slice(0, semi)).includes('json');
}

/**
 * The body of `payload`, with Fastify's rules for `reply.send()`: a stream or bytes as they are,
 * a string as text unless typed, anything else (a typed string too) as JSON when the type is
 * JSON or unset (`; charset=utf-8` added), through the route's serializer; `null` under
 * another type is an empty body.
 */
function bodyOf(
  reply: BunReply,
  payload: unknown,
  serializer: Serializer | undefined,
): ResponseBody | null {
  if (payload === undefined) return null;
  const type = reply.getHeader('content-type') as string | undefined;
  if (payload !== null) {
    if (payload instanceof ReadableStream || isNodeStream(payload)) return payload as ResponseBody;
    // A typed array (a Buffer) is bytes; a bare ArrayBuffer is an object, JSON `{}`, as on Fastify.
    if (ArrayBuffer.isView(payload)) {
      if (type === undefined) reply.header('content-type', BYTES_TYPE);
      return payload as ResponseBody;
    }
    if (typeof payload === 'string' && type === undefined) {
      reply.header('content-type', TEXT_TYPE);
      return payload;
    }
  }
  if (type === undefined || isJsonMedia(type)) {
    if (type === undefined) reply.header('content-type', JSON_TYPE);
    else if (!/;\s*charset\s*=/i.test(type)) {
      reply.header('content-type', `${type.trim().replace(/;$/, '')}; charset=utf-8`);
    }
    if (typeof payload === 'string') return payload;
    return serializer ? serializer(payload) : JSON.stringify(payload);
  }
  if (payload === null) return null;
  return typeof payload === 'string' ? payload : String(payload);
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
  if (plan.compressor && body !== null) {
    const accept = {
      encoding: request.header('accept-encoding'),
      refused: request.header('x-no-compression') !== undefined,
    };
    body = plan.compressor.compress(accept, reply, body as string) as ResponseBody;
  }
  const headers = reply.responseHeaders();
  const response = new Response(body, { status, headers: headersInit(headers) });
  // A client that left mid-body, or before the answer, is logged as on the Fastify engine.
  const left = request.cutOff ?? (request.native.signal.aborted ? LEFT_BEFORE_ANSWER : undefined);
  const logged = left === LEFT_BEFORE_ANSWER ? CLIENT_CLOSED_STATUS : status;
  const record = (why?: string) =>
    writeRecord(
      plan.answerPath,
      fastifyRequest,
      logged,
      performance.now() - reply.startedAt,
      why ?? left,
    );
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
