/**
 * `ws(path, {...})`: a WebSocket route, built like any route so groups and controllers can hold
 * it and their middleware runs on the upgrade request; the engine hands it to its mounter.
 * @module
 */
import { mountWith, type RouteMounter } from '../engine/route-mounter.js';
import type { RouteDef, Schema } from '../routing/types.js';
import { isStandardSchema } from '../standard-schema.js';
import { mountWebSocketRoutes } from './mount.js';
import {
  setWebSocketRoute,
  WEBSOCKET_DEFAULTS,
  type WebSocketOptions,
  type WebSocketRoute,
} from './route.js';

/** Mounts every WebSocket route of the app in one engine context. */
const WEBSOCKET_MOUNTER: RouteMounter = {
  mount: (fastify, entries, plan) =>
    mountWebSocketRoutes(fastify, entries, plan.runtime, plan.appMiddleware, plan.answerPath),
};

// The longest delay a Node timer takes; a longer one fires at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

function upgradeOnly(): never {
  throw new Error('a WebSocket route answers through its upgrade, not through its handler');
}

/**
 * A WebSocket route at `path` (a `GET` that upgrades). Middleware of the app, its groups and
 * `middleware` runs on the upgrade request: one that answers (e.g. 401) refuses the upgrade.
 * Left out of the OpenAPI document.
 * @example ws('/chat', { message: z.object({ text: z.string() }), onMessage: (m, socket) => socket.send(m.text) })
 */
export function ws<Path extends string, M extends Schema | undefined = undefined>(
  path: Path,
  options: WebSocketOptions<Path, M>,
): RouteDef {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`ws(): the path must start with '/', got ${JSON.stringify(path)}`);
  }
  if (!options || typeof options.onMessage !== 'function') {
    throw new TypeError(`ws ${path}: onMessage must be a function`);
  }
  const schema = options.message;
  if (schema !== undefined && !isStandardSchema(schema)) {
    throw new TypeError(`ws ${path}: the message schema is not a Standard Schema value`);
  }
  const { maxQueued = WEBSOCKET_DEFAULTS.maxQueued } = options;
  const { pingIntervalMs = WEBSOCKET_DEFAULTS.pingIntervalMs } = options;
  if (!Number.isInteger(maxQueued) || maxQueued < 1) {
    throw new TypeError(`ws ${path}: maxQueued must be an integer >= 1, got ${String(maxQueued)}`);
  }
  const validInterval =
    typeof pingIntervalMs === 'number' && pingIntervalMs > 0 && pingIntervalMs <= MAX_TIMER_MS;
  if (pingIntervalMs !== false && !validInterval) {
    throw new TypeError(
      `ws ${path}: pingIntervalMs must be a number of ms from 1 to ${MAX_TIMER_MS}, or false, got ${String(pingIntervalMs)}`,
    );
  }
  const def: RouteDef = Object.freeze({
    method: 'GET',
    path,
    options: { hidden: true, ...(options.middleware ? { middleware: options.middleware } : {}) },
    handler: upgradeOnly,
  });
  mountWith(def, WEBSOCKET_MOUNTER);
  setWebSocketRoute(
    def,
    Object.freeze({
      message: schema,
      open: options.open as WebSocketRoute['open'],
      onMessage: options.onMessage as WebSocketRoute['onMessage'],
      close: options.close as WebSocketRoute['close'],
      maxQueued,
      pingIntervalMs,
    }),
  );
  return def;
}
