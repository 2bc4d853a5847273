/**
 * Answers for requests that never reach a route: bytes Node's HTTP parser rejects, and URLs the
 * router cannot decode. Both answer with a problem body, like every other error.
 * @module
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  PROBLEM_CONTENT_TYPE,
  type ProblemDetails,
  statusTitle,
  toProblem,
} from '../errors/index.js';

/** Node's parser error codes that have a status of their own; any other one is a 400. */
const PARSER_ERRORS: Readonly<Record<string, readonly [number, string, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request line and headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time.'],
};

const MALFORMED: readonly [number, string, string] = [
  400,
  'MALFORMED_REQUEST',
  'The request is not valid HTTP/1.1.',
];

/** The raw HTTP/1.1 answer to a request Node's parser rejected, as one string. */
export function clientErrorResponse(code: string | undefined): string {
  const [status, machine, detail] = (code && PARSER_ERRORS[code]) || MALFORMED;
  const title = statusTitle(status);
  const problem: ProblemDetails = { type: 'about:blank', title, status, detail, code: machine };
  const body = JSON.stringify(problem);
  return (
    `HTTP/1.1 ${status} ${title}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * The engine's `clientErrorHandler`: Node's parser rejected what arrived on `socket` (bad
 * request line or header, headers too large, bad chunked encoding, a request timeout). Writes a
 * problem answer when nothing of another response is on the wire yet, then closes the socket.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })
    ._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error.code));
  socket.destroy(error);
}

/**
 * The engine's `frameworkErrors` handler: a URL the router cannot decode (`/%zz`) or a path
 * parameter past its length limit. Answers 400 or 414 with a problem body.
 */
export function handleFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const problem = toProblem(error);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}
