/**
 * Answers for requests that never reach a route: bytes Node's HTTP parser rejects, URLs the
 * router cannot decode, and expectations Node refuses. No engine hook runs for them, so each
 * sets the headers, shapes the error body, logs and counts itself, through the answer path.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorContext } from '../errors/error-body.js';
import {
  catalogueProblem,
  type KeelsonErrorCode,
  type ProblemDetails,
  toProblem,
} from '../errors/index.js';
import type { RequestLogEntry } from '../logger/index.js';
import { markAnsweredAtEdge } from '../request/cut-off.js';
import { pathOf, shownPath } from '../request/request-state.js';
import {
  type AnswerPath,
  errorPayload,
  recordAnswer,
  sendProblem,
  UNMATCHED_ROUTE,
} from './answer.js';
import { requestIdFor } from './request-id.js';
import { setAnswerHeaders } from './response-headers.js';

/** Node's parser error codes that have a status of their own; any other one is a 400. */
const PARSER_ERRORS: Readonly<Record<string, readonly [KeelsonErrorCode, string]>> = {
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'The request line and headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'The request was not received in time.'],
};

const MALFORMED: readonly [KeelsonErrorCode, string] = [
  'MALFORMED_REQUEST',
  'The request is not valid HTTP/1.1.',
];

/** The problem body and the headers of an answer written without the engine. */
function rawAnswer(
  answerPath: AnswerPath,
  problem: ProblemDetails,
  seen: ErrorContext,
): { body: string; headers: Record<string, string> } {
  const body = errorPayload(answerPath, problem, seen);
  const headers: Record<string, string> = {
    'content-type': answerPath.errors.contentType,
    'content-length': String(Buffer.byteLength(body)),
  };
  for (const [name, value] of answerPath.securityHeaders) headers[name] = value;
  if (answerPath.requestIdHeader !== undefined && seen.requestId !== undefined) {
    headers[answerPath.requestIdHeader] = seen.requestId;
  }
  return { body, headers };
}

function log(answerPath: AnswerPath, seen: ErrorContext, status: number, durationMs: number): void {
  const entry: RequestLogEntry = { method: seen.method, path: seen.path, status, durationMs };
  if (seen.requestId !== undefined) entry.requestId = seen.requestId;
  recordAnswer(answerPath.runtime, entry, UNMATCHED_ROUTE);
}

/** What the request line of a rejected request says, when it can be read. */
function seenOf(
  answerPath: AnswerPath,
  error: NodeJS.ErrnoException,
  req?: IncomingMessage,
): ErrorContext {
  const requestId =
    answerPath.requestIdHeader === undefined
      ? undefined
      : requestIdFor(req?.headers[answerPath.requestIdHeader]);
  if (req?.method && req.url) {
    return { method: req.method, path: shownPath(pathOf(req.url)), requestId };
  }
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  if (Buffer.isBuffer(raw)) {
    const line = /^([A-Za-z-]{1,24}) ([^\s]+)/.exec(raw.subarray(0, 8192).toString('latin1'));
    if (line) return { method: line[1]!, path: shownPath(pathOf(line[2]!)), requestId };
  }
  return { method: '-', path: '-', requestId };
}

/** The raw HTTP/1.1 answer to a request Node's parser rejected, and its status. */
function clientErrorResponse(
  answerPath: AnswerPath,
  code: string | undefined,
  seen: ErrorContext,
): { status: number; text: string } {
  const [machine, detail] = (code && PARSER_ERRORS[code]) || MALFORMED;
  const problem = catalogueProblem(machine, detail);
  const { status, title } = problem;
  const { body, headers } = rawAnswer(answerPath, problem, seen);
  let text = `HTTP/1.1 ${status} ${title}\r\n`;
  for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
  return { status, text: `${text}connection: close\r\n\r\n${body}` };
}

/** The engine's `clientErrorHandler` and `frameworkErrors`, and the server's 417 answer. */
export interface EdgeHandlers {
  /**
   * Node's parser rejected what arrived on `socket` (bad request line or header, headers too
   * large, bad chunked encoding, a request timeout). Writes a problem answer when nothing of
   * another response is on the wire yet, then closes the socket.
   */
  handleClientError(error: NodeJS.ErrnoException, socket: Socket): void;
  /** A URL the router cannot decode (`/%zz`) or a path parameter past its length limit. */
  handleFrameworkError(
    error: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply;
  /** An `Expect` other than `100-continue`: 417 (the server's `checkExpectation` listener). */
  handleExpectation(req: IncomingMessage, res: ServerResponse): void;
}

/** The handlers for answers written outside the engine's hooks, bound to the answer path. */
export function edgeHandlers(answerPath: AnswerPath): EdgeHandlers {
  return {
    handleClientError(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      // The client left in the middle of a request that reached a route: that request logs
      // itself. Bun reports the EOF before the request's abort, with the socket still open;
      // Node.js after it, with the socket already destroyed.
      if (error.code === 'HPE_INVALID_EOF_STATE' && inFlight?.req) {
        socket.destroy();
        return;
      }
      if (socket.writable && !inFlight?.headersSent) {
        const seen = seenOf(answerPath, error, inFlight?.req);
        const { status, text } = clientErrorResponse(answerPath, error.code, seen);
        socket.write(text);
        log(answerPath, seen, status, 0);
        // The request the engine had begun is answered and logged here, not a second time there.
        if (inFlight) markAnsweredAtEdge(inFlight);
      }
      socket.destroy(error);
    },

    handleFrameworkError(error, request, reply) {
      const started = performance.now();
      setAnswerHeaders(answerPath, request, reply);
      reply.raw.once('finish', () => {
        const entry: RequestLogEntry = {
          method: request.method,
          path: shownPath(pathOf(request.url)),
          status: reply.statusCode,
          durationMs: performance.now() - started,
        };
        if (answerPath.requestIdHeader !== undefined) entry.requestId = request.id;
        recordAnswer(answerPath.runtime, entry, UNMATCHED_ROUTE);
      });
      const problem = toProblem(error);
      // Fastify's message quotes the whole URL back: say it with the path cut short.
      const shown = shownPath(pathOf(request.url));
      if (error.code === 'FST_ERR_BAD_URL') problem.detail = `The URL ${shown} is not valid.`;
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        problem.detail = `A path parameter of ${shown} is too long.`;
      }
      return sendProblem(answerPath, request, reply, problem);
    },

    handleExpectation(req, res) {
      const started = performance.now();
      const seen = seenOf(answerPath, new Error('expectation failed'), req);
      const problem = catalogueProblem(
        'EXPECTATION_FAILED',
        'Only the expectation 100-continue is supported.',
      );
      const { body, headers } = rawAnswer(answerPath, problem, seen);
      // The body, if any, is left unread: the connection cannot be used again.
      headers.connection = 'close';
      res.writeHead(417, headers);
      res.end(body, () => log(answerPath, seen, 417, performance.now() - started));
    },
  };
}
