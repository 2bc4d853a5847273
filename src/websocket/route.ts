/**
 * `ws(path, {...})`: a WebSocket route, built like any route so groups and controllers can hold
 * it and their middleware runs on the upgrade request.
 * @module
 */
import type { Context } from '../routing/context.js';
import type { Infer, Middleware, PathParams, RouteDef, Schema } from '../routing/types.js';
import { isStandardSchema } from '../standard-schema.js';

/** The side of an open WebSocket connection a handler uses. */
export interface WebSocketConnection {
  /** Sends a text or binary message. */
  send(data: string | Buffer | ArrayBuffer | Uint8Array): void;
  /** Starts the closing handshake with `code` (1000 when absent) and `reason`. */
  close(code?: number, reason?: string): void;
  /** Drops the connection without the closing handshake. */
  terminate(): void;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
}

/** The context a WebSocket handler gets: the upgrade request's, with its path parameters. */
export type WebSocketContext<Path extends string> = Context<PathParams<Path>>;

/** What a WebSocket route does, with the schema its messages must match. */
export interface WebSocketOptions<Path extends string, M extends Schema | undefined = undefined> {
  /** Schema of each message, sent as JSON; one that fails is answered with an error frame. */
  message?: M;
  /** Middleware that runs on the upgrade request of this route only, innermost. */
  middleware?: Middleware[];
  /** Called once the connection is open. */
  open?(socket: WebSocketConnection, c: WebSocketContext<Path>): unknown;
  /** Called for each message: the validated value, or the text (a Buffer for binary) without a schema. */
  onMessage(
    message: Infer<M, string | Buffer>,
    socket: WebSocketConnection,
    c: WebSocketContext<Path>,
  ): unknown;
  /** Called once the connection has closed, with the close code. */
  close?(socket: WebSocketConnection, code: number, c: WebSocketContext<Path>): unknown;
  /**
   * The most messages of one connection that may wait while `onMessage` is busy. Reading from
   * the connection pauses when they are reached (or hold 1 MiB) and resumes once half are
   * handled, so a fast client is slowed to the handler's pace; a message that arrives past the
   * limit anyway (a burst read before the pause) closes the connection with 1008.
   * @default 64
   */
  maxQueued?: number;
  /**
   * How often the server pings each connection; one that has sent neither a pong nor a
   * message by the next ping is dropped (1006). `false` sends no pings.
   * @default 30000
   */
  pingIntervalMs?: number | false;
}

/** The defaults of a WebSocket route's limits. */
export const WEBSOCKET_DEFAULTS = Object.freeze({ maxQueued: 64, pingIntervalMs: 30_000 });

/** A WebSocket route's options once the route is built, types erased. */
export interface WebSocketRoute {
  readonly message: Schema | undefined;
  readonly open: ((socket: WebSocketConnection, c: Context) => unknown) | undefined;
  readonly onMessage: (message: unknown, socket: WebSocketConnection, c: Context) => unknown;
  readonly close: ((socket: WebSocketConnection, code: number, c: Context) => unknown) | undefined;
  readonly maxQueued: number;
  readonly pingIntervalMs: number | false;
}

// The longest delay a Node timer takes; a longer one fires at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

const routes = new WeakMap<RouteDef, WebSocketRoute>();

/** The WebSocket side of a route, or undefined for an HTTP route. */
export function websocketOf(def: RouteDef): WebSocketRoute | undefined {
  return routes.get(def);
}

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
  routes.set(
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
