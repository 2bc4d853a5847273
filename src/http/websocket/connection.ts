/**
 * One accepted WebSocket connection: messages validated and handed to the route one at a time,
 * bad ones answered with an error frame, one request-log entry when it closes.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { describeError } from '../../errors/describe.js';
import { KError, toProblem, unprocessable } from '../../errors/index.js';
import type { Context, RequestRuntime } from '../../routing/context.js';
import { issuePath } from '../../standard-schema.js';
import type { AnswerPath } from '../answer.js';
import { type HookRuntime, recordRequest } from '../hooks.js';
import type { WebSocketRoute } from './route.js';

/** The close code of a connection the server ends because it is shutting down ("going away"). */
export const GOING_AWAY = 1001;
/** The close code of a connection whose handler failed. */
const INTERNAL_ERROR = 1011;

/** The frame a message that cannot be handled gets: `{ "type": "error", "error": <problem> }`. */
export function errorFrame(err: unknown): string {
  return JSON.stringify({ type: 'error', error: toProblem(err) });
}

/** Runs a route's handlers on one accepted connection; resolves once it has closed and is logged. */
export function runConnection(
  socket: WebSocket,
  c: Context,
  route: WebSocketRoute,
  runtime: HookRuntime & RequestRuntime,
  answers: AnswerPath,
): Promise<void> {
  const { request, reply } = c;
  const where = `websocket ${request.keelsonRoute ?? request.url}`;
  const failed = (stage: string, err: unknown) => {
    request.keelsonError = err;
    runtime.logger.warn('%s: %s failed: %s', where, stage, describeError(err));
    socket.close(INTERNAL_ERROR, 'internal error');
  };
  // Messages are handled one after another, in the order they arrive.
  let queue: Promise<unknown> = Promise.resolve();
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    queue = queue
      .then(() => handleMessage(data, isBinary))
      .catch((err) => failed('onMessage', err));
  });
  const closed = new Promise<void>((resolve) => {
    socket.once('close', (code: number) => {
      void queue.then(async () => {
        try {
          await route.close?.(socket, code, c);
        } catch (err) {
          runtime.logger.warn('%s: close failed: %s', where, describeError(err));
        }
        logClose(answers, request, reply);
        resolve();
      });
    });
  });
  queue = queue.then(() => route.open?.(socket, c)).catch((err) => failed('open', err));
  return closed;

  async function handleMessage(data: Buffer, isBinary: boolean): Promise<void> {
    const schema = route.message;
    if (!schema) return answer(isBinary ? data : data.toString());
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      const bad = new KError({
        code: 'MALFORMED_JSON',
        statusCode: 400,
        message: 'The message is not valid JSON.',
      });
      return void socket.send(errorFrame(bad));
    }
    const result = await schema['~standard'].validate(parsed);
    if (result.issues) {
      const issues = result.issues.map((i) => ({
        path: issuePath(i, 'message'),
        message: i.message,
      }));
      return void socket.send(
        errorFrame(unprocessable('The message did not pass validation.', issues)),
      );
    }
    return answer(result.value);
  }

  async function answer(message: unknown): Promise<void> {
    try {
      await route.onMessage(message, socket, c);
    } catch (err) {
      // A KError is the handler's answer to this message; anything else ends the connection.
      if (err instanceof KError && err.statusCode < 500) return void socket.send(errorFrame(err));
      throw err;
    }
  }
}

// The upgrade was answered 101; the entry's duration is the connection's lifetime.
function logClose(answers: AnswerPath, request: FastifyRequest, reply: FastifyReply): void {
  reply.code(101);
  recordRequest(answers, request, reply);
}
