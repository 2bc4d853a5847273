/**
 * `ws(path, {...})`: a WebSocket route, built like any route so groups and controllers can hold
 * it and their middleware runs on the upgrade request.
 * @module
 */
import type { Context } from '../../routing/context.js';
import type { Infer, Middleware, PathParams, RouteDef, Schema } from '../../routing/types.js';
import { isStandardSchema } from '../../standard-schema.js';

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
}

/** A WebSocket route's options once the route is built, types erased. */
export interface WebSocketRoute {
  readonly message: Schema | undefined;
  readonly open: ((socket: WebSocketConnection, c: Context) => unknown) | undefined;
  readonly onMessage: (message: unknown, socket: WebSocketConnection, c: Context) => unknown;
  readonly close: ((socket: WebSocketConnection, code: number, c: Context) => unknown) | undefined;
}

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
    }),
  );
  return def;
}
