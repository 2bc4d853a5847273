/**
 * What the lifecycle runs of an engine, whichever it is (Fastify on `node:http`, `Bun.serve`):
 * bind, watch the connections, stop accepting and drain, cut what is left.
 * @module
 */
import type { ConnectionTrackerOptions } from './connections.js';

/** What the drain cuts: requests not answered in time, then every connection still open. */
export interface Connections {
  /** Cuts the requests still waiting for an answer, each logged once; how many were cut. */
  cutUnanswered(reason: string): number;
  /** Cuts every connection still open; how many were cut. */
  cutAll(reason: string): number;
  /** Stops watching (the shutdown is over). */
  stop(): void;
}

/** The listening side of an engine. */
export interface EngineServer {
  /** Starts watching connections; called once, before `listen`. */
  track(options: ConnectionTrackerOptions): Connections;
  /** Binds `host:port`; resolves with the bound URL (an unspecified address reads `localhost`). */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting and resolves once the requests in flight have been answered. */
  close(): Promise<void>;
  /** Closes the keep-alive connections that wait for no answer. */
  closeIdle(): void;
  /** Closes every connection at once. */
  closeAll(): void;
}
