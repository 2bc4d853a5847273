/**
 * The types of a WebSocket route and the registry of their WebSocket sides (see `ws()`).
 * @module
 */
import type { Context } from '../routing/context.js';
import type { Infer, Middleware, PathParams, RouteDef, Schema } from '../routing/types.js';

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

const routes = new WeakMap<RouteDef, WebSocketRoute>();

/** The WebSocket side of a route, or undefined for an HTTP route. */
export function websocketOf(def: RouteDef): WebSocketRoute | undefined {
  return routes.get(def);
}

/** Records the WebSocket side of `def`; called by `ws()`. */
export function setWebSocketRoute(def: RouteDef, route: WebSocketRoute): void {
  routes.set(def, route);
}
