/**
 * One accepted WebSocket connection: messages validated and handed to the route one at a time,
 * bad ones answered with an error frame, one request-log entry when it closes.
 * @module
 */
import type { WebSocket } from 'ws';
import type { AnswerPath } from '../engine/answer.js';
import { recordRequest } from '../engine/hooks.js';
import { describeError } from '../errors/describe.js';
import { KError, keelsonError, toProblem, unprocessable } from '../errors/index.js';
import type { Context } from '../routing/context.js';
import type { AppRuntime } from '../routing/runtime.js';
import { issuePath } from '../standard-schema.js';
import { startHeartbeat } from './heartbeat.js';
import { Inbox } from './inbox.js';
import type { WebSocketRoute } from './route.js';

/** The close code of a connection the server ends because it is shutting down ("going away"). */
const GOING_AWAY = 1001;
/** The close code of a connection whose handler failed. */
const INTERNAL_ERROR = 1011;
/** The close code of a connection whose client sent more than its handler could keep up with. */
const POLICY_VIOLATION = 1008;
/** A WebSocket's readyState once closed. */
const CLOSED = 3;

/** The frame a message that cannot be handled gets: `{ "type": "error", "error": <problem> }`. */
export function errorFrame(err: unknown): string {
  return JSON.stringify({ type: 'error', error: toProblem(err) });
}

/** An accepted connection, as the routes' mount sees it. */
export interface OpenConnection {
  /** Resolves once the connection has closed, its close handler has run and it is logged. */
  readonly ended: Promise<void>;
  /**
   * Starts the closing handshake with 1001 ("going away"), and drops the connection if the
   * client has not finished it within `timeoutMs`.
   */
  closeForShutdown(timeoutMs: number): void;
}

/**
 * Runs a route's handlers on one accepted connection: `open`, then each message in order
 * through an Inbox (back-pressure, `maxQueued`), pings every `pingIntervalMs`, and at the end
 * `close` and one request-log entry, which says why when the server ended the connection.
 */
export function runConnection(
  socket: WebSocket,
  c: Context,
  route: WebSocketRoute,
  runtime: AppRuntime,
  answerPath: AnswerPath,
): OpenConnection {
  const { request, reply } = c;
  // The upgrade was answered 101 (by ws, past the response object): the entry's status, and
  // what tells the shutdown this connection is no request waiting for an answer.
  reply.code(101);
  const where = `websocket ${request.keelsonRoute ?? request.url}`;
  // Why the server ended the connection, when it did not end normally: the entry's error.
  let endedBy: string | undefined;
  let shutdownTimer: NodeJS.Timeout | undefined;
  const terminate = (why: string) => {
    endedBy ??= why;
    socket.terminate();
  };
  const failed = (stage: string, err: unknown) => {
    request.keelsonError = err;
    runtime.logger.warn('%s: %s failed: %s', where, stage, describeError(err));
    socket.close(INTERNAL_ERROR, 'internal error');
  };
  const inbox = new Inbox(socket, route.maxQueued, () => {
    endedBy ??= `closed with 1008: more than ${route.maxQueued} messages waited for the handler`;
    socket.close(POLICY_VIOLATION, 'too many messages waiting');
  });
  const interval = route.pingIntervalMs;
  const stopHeartbeat =
    interval === false
      ? () => {}
      : startHeartbeat(
          socket,
          interval,
          () => inbox.paused,
          () => terminate(`dropped: no pong to a ping within ${interval} ms`),
        );
  inbox.push(async () => {
    try {
      await route.open?.(socket, c);
    } catch (err) {
      failed('open', err);
    }
  }, 0);
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    inbox.push(
      () => handleMessage(data, isBinary).catch((err) => failed('onMessage', err)),
      data.length,
    );
  });
  const ended = new Promise<void>((resolve) => {
    socket.once('close', (code: number) => {
      // What the client sent and is still waiting is nobody's to answer now.
      inbox.drop();
      stopHeartbeat();
      clearTimeout(shutdownTimer);
      void inbox.idle().then(async () => {
        try {
          await route.close?.(socket, code, c);
        } catch (err) {
          runtime.logger.warn('%s: close failed: %s', where, describeError(err));
        }
        // The entry's duration is the connection's lifetime.
        recordRequest(answerPath, request, reply, endedBy);
        resolve();
      });
    });
  });
  return {
    ended,
    closeForShutdown(timeoutMs) {
      if (socket.readyState === CLOSED || shutdownTimer) return;
      // Reading again, so the client's close frame is read even if the inbox had paused.
      inbox.drop();
      socket.close(GOING_AWAY, 'server shutting down');
      shutdownTimer = setTimeout(
        () => terminate(`closed at shutdown: no close frame back within ${timeoutMs} ms`),
        timeoutMs,
      );
      shutdownTimer.unref();
    },
  };

  async function handleMessage(data: Buffer, isBinary: boolean): Promise<void> {
    const schema = route.message;
    if (!schema) return answer(isBinary ? data : data.toString());
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      const bad = keelsonError('MALFORMED_JSON', 'The message is not valid JSON.');
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
