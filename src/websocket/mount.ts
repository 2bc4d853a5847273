/**
 * Mounts the WebSocket routes in one encapsulated engine context with @fastify/websocket, so
 * its hooks run for those routes only and an app without WebSocket routes pays nothing.
 * @module
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AnswerPath } from '../engine/answer.js';
import { keelsonError } from '../errors/index.js';
import { compose } from '../routing/compose.js';
import { Context } from '../routing/context.js';
import type { AppRuntime } from '../routing/runtime.js';
import { chainOf, type RouteEntry } from '../routing/table.js';
import type { Middleware } from '../routing/types.js';
import { type OpenConnection, runConnection } from './connection.js';
import { websocketOf } from './route.js';

const ACCEPT = Symbol('accept the upgrade');

/** The largest WebSocket message accepted, in bytes. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * How long a client has to answer the close frame sent at shutdown before its connection is
 * dropped: a client that ignores it must not hold the drain (half the shutdown's time).
 */
export const SHUTDOWN_CLOSE_TIMEOUT_MS = 1_000;

/**
 * Mounts `entries` (WebSocket routes) and closes their connections with 1001 at shutdown,
 * dropping those whose client has not answered within SHUTDOWN_CLOSE_TIMEOUT_MS.
 */
export function mountWebSocketRoutes(
  fastify: FastifyInstance,
  entries: readonly RouteEntry[],
  runtime: AppRuntime,
  appMiddleware: readonly Middleware[],
  answerPath: AnswerPath,
): void {
  // Each open connection, until it has closed and is logged.
  const open = new Set<OpenConnection>();
  runtime.shutdownBegun.addEventListener(
    'abort',
    () => {
      for (const connection of open) connection.closeForShutdown(SHUTDOWN_CLOSE_TIMEOUT_MS);
    },
    { once: true },
  );
  fastify.register(async function keelsonWebSockets(context) {
    // ws's own default is 100 MiB a message; a larger message closes the connection with 1009.
    // Loaded on first use: an app without WebSocket routes does not pay its import at startup.
    const { default: websocketPlugin } = await import('@fastify/websocket');
    await context.register(websocketPlugin, { options: { maxPayload: MAX_MESSAGE_BYTES } });
    // After the plugin's own listener, which routes the upgrade through the engine.
    context.server.on('upgrade', closeWhenRefused);
    // The engine's close waits for the closing handshakes, so each connection is logged before
    // the process exits; SHUTDOWN_CLOSE_TIMEOUT_MS bounds a client that never answers.
    context.addHook('onClose', async function waitForWebSockets() {
      await Promise.all([...open].map((connection) => connection.ended));
    });
    for (const entry of entries) mountOne(context, entry, runtime, appMiddleware, answerPath, open);
  });
}

/**
 * An upgrade request the app answers with anything but 101 (404, 401, 426 …) leaves a socket
 * Node no longer parses HTTP on, and that nothing closes: it held the shutdown to its deadline.
 * Close it once the answer is sent.
 */
function closeWhenRefused(_request: IncomingMessage, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  response?.once('finish', () => {
    if (response.statusCode !== 101) (socket as Socket).destroySoon();
  });
}

function mountOne(
  context: FastifyInstance,
  entry: RouteEntry,
  runtime: AppRuntime,
  appMiddleware: readonly Middleware[],
  answerPath: AnswerPath,
  open: Set<OpenConnection>,
): void {
  const route = websocketOf(entry.def)!;
  const pattern = entry.path;
  const chain = compose(chainOf(entry, appMiddleware), () => ACCEPT);
  const accepted = new WeakMap<FastifyRequest, Context>();

  context.route({
    method: 'GET',
    url: pattern,
    websocket: true,
    // The middleware runs here, on the upgrade request: an answer or a throw refuses the upgrade.
    preHandler: async function upgradeGuard(request: FastifyRequest, reply: FastifyReply) {
      request.keelsonRoute = pattern;
      if (!request.ws) {
        throw keelsonError(
          'UPGRADE_REQUIRED',
          `${pattern} is a WebSocket endpoint; send an Upgrade: websocket request.`,
          { headers: { upgrade: 'websocket', connection: 'Upgrade' } },
        );
      }
      const c = new Context(request, reply, runtime);
      const answer = await chain(c);
      if (answer === ACCEPT) {
        accepted.set(request, c);
        return;
      }
      if (!reply.sent) await reply.send(answer);
      return reply;
    },
    handler: function keelsonWebSocket(socket: WebSocket, request: FastifyRequest) {
      const c = accepted.get(request)!;
      const connection = runConnection(socket, c, route, runtime, answerPath);
      open.add(connection);
      void connection.ended.then(() => open.delete(connection));
      if (runtime.shutdownBegun.aborted) connection.closeForShutdown(SHUTDOWN_CLOSE_TIMEOUT_MS);
    },
  });
}
