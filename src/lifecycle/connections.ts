/**
 * The connections of a listening server: which are idle, which wait for an answer, which are
 * being sent a response, and the send timeout that drops a client that takes nothing.
 * @module
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../logger/index.js';
import { markCutOff } from '../request/cut-off.js';

/** What a ConnectionTracker needs. */
export interface ConnectionTrackerOptions {
  /** A client that takes no byte of a pending response for this long is dropped. */
  readonly sendTimeoutMs: number;
  readonly logger: Logger;
}

interface Stall {
  /** Bytes the client has taken so far (written minus still pending). */
  taken: number;
  /** When `taken` last changed, in performance.now() ms. */
  since: number;
}

// The response a socket is serving: Node's own field, the one its closeIdleConnections reads.
function responseOf(socket: Socket): ServerResponse | undefined {
  return (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Tracks the connections of `server` (one Set entry per connection, nothing per request):
 * - replaces the server's `closeIdleConnections`, which `server.close()` calls, with one that
 *   spares a connection whose ended response is still on its way to a slow reader (Node's own
 *   closes it and cuts the response short);
 * - every so often, drops a client that has taken no byte of a pending response for
 *   `sendTimeoutMs`, which releases the memory the response held;
 * - cuts connections off at shutdown, each cut request logged once by the request log with
 *   why it was cut.
 */
export class ConnectionTracker {
  readonly #sockets = new Set<Socket>();
  readonly #stalls = new Map<Socket, Stall>();
  readonly #sendTimeoutMs: number;
  readonly #logger: Logger;
  readonly #timer: NodeJS.Timeout;

  /** Starts tracking; call before the server listens. */
  constructor(server: Server, { sendTimeoutMs, logger }: ConnectionTrackerOptions) {
    this.#sendTimeoutMs = sendTimeoutMs;
    this.#logger = logger;
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
    });
    server.closeIdleConnections = () => {
      this.closeIdle();
    };
    const every = Math.min(1_000, Math.max(10, Math.floor(sendTimeoutMs / 4)));
    this.#timer = setInterval(() => this.#sweep(), every);
    this.#timer.unref();
  }

  /** How many connections are open. */
  get open(): number {
    this.#forgetClosed();
    return this.#sockets.size;
  }

  /**
   * Closes every HTTP connection with no request in progress and nothing left to send. A
   * connection upgraded to another protocol (a WebSocket) is left to whoever took it over.
   */
  closeIdle(): void {
    for (const socket of this.#sockets) {
      if (
        !socket.destroyed &&
        !isUpgraded(socket) &&
        !responseOf(socket) &&
        socket.writableLength === 0
      ) {
        socket.destroy();
      }
    }
  }

  /**
   * Cuts off every connection whose request has no answer started (a body still arriving, a
   * handler still working); responses already being sent are left alone, and so are the
   * connections answered 101 and taken over (WebSockets), which their owner closes. Returns
   * how many.
   */
  cutUnanswered(reason: string): number {
    let cut = 0;
    for (const socket of this.#sockets) {
      const res = responseOf(socket);
      if (socket.destroyed || !res || res.headersSent || isTakenOver(socket, res)) continue;
      this.#cut(socket, res, reason);
      cut++;
    }
    return cut;
  }

  /** Cuts off every connection still open. Returns how many. */
  cutAll(reason: string): number {
    let cut = 0;
    for (const socket of this.#sockets) {
      if (socket.destroyed) continue;
      this.#cut(socket, responseOf(socket), reason);
      cut++;
    }
    return cut;
  }

  /** Stops the send-timeout sweep. */
  stop(): void {
    clearInterval(this.#timer);
  }

  #cut(socket: Socket, res: ServerResponse | undefined, reason: string): void {
    if (res && !res.writableFinished) {
      const pending = socket.writableLength;
      let detail: string;
      if (isTakenOver(socket, res)) {
        // Its 101 went out past the response object, so headersSent says nothing of it.
        detail = `upgraded connection cut off: ${reason}`;
      } else if (res.headersSent) {
        detail = `response cut off: ${reason}${pending > 0 ? ` (${pending} bytes pending)` : ''}`;
      } else {
        detail = `request cut off before an answer: ${reason}`;
        // Nothing was sent: the log says 503, what a request refused at shutdown would get.
        res.statusCode = 503;
      }
      markCutOff(res, detail);
      // The engine writes the request's log entry when its response errors or finishes; a
      // connection destroyed mid-response does neither, so the entry would be lost.
      if (res.listenerCount('error') > 0) res.emit('error', new Error(detail));
    }
    socket.destroy();
  }

  #forgetClosed(): void {
    for (const socket of this.#sockets) {
      if (socket.destroyed) {
        this.#sockets.delete(socket);
        this.#stalls.delete(socket);
      }
    }
  }

  #sweep(): void {
    this.#forgetClosed();
    const now = performance.now();
    for (const socket of this.#sockets) {
      const pending = socket.writableLength;
      if (pending === 0) {
        this.#stalls.delete(socket);
        continue;
      }
      const taken = socket.bytesWritten - pending;
      const stall = this.#stalls.get(socket);
      if (!stall || stall.taken !== taken) {
        this.#stalls.set(socket, { taken, since: now });
      } else if (now - stall.since >= this.#sendTimeoutMs) {
        this.#stalls.delete(socket);
        const res = responseOf(socket);
        if (!res) {
          this.#logger.warn(
            'send timeout: dropped %s, which took no byte for %d ms (%d bytes pending)',
            remote(socket),
            this.#sendTimeoutMs,
            pending,
          );
        }
        this.#cut(
          socket,
          res,
          `send timeout: the client took no byte for ${this.#sendTimeoutMs} ms`,
        );
      }
    }
  }
}

// Node frees a connection's HTTP parser when the connection is upgraded (or closed).
function isUpgraded(socket: Socket): boolean {
  return (socket as { parser?: unknown }).parser === null;
}

// Upgraded, and its upgrade accepted: the WebSocket layer sets 101 on the response it was
// routed with. An upgrade whose middleware still runs is an unanswered request like any other.
function isTakenOver(socket: Socket, res: ServerResponse): boolean {
  return res.statusCode === 101 && isUpgraded(socket);
}

function remote(socket: Socket): string {
  return `${socket.remoteAddress ?? 'a client'}:${socket.remotePort ?? '?'}`;
}
