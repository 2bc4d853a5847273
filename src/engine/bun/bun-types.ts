/**
 * The part of Bun's `Bun.serve` this engine uses, typed here so the package needs no Bun type
 * package (and Node's type-check never sees Bun's globals).
 * @module
 */

/** A running `Bun.serve` server: what the engine and `app.engine.server` use of it. */
export interface BunServer {
  /** The bound port. */
  readonly port: number;
  /** The bound host name. */
  readonly hostname: string;
  /** Requests being served right now. */
  readonly pendingRequests: number;
  /** Stops accepting; `true` also closes every connection at once. Resolves once all closed. */
  stop(closeActiveConnections?: boolean): Promise<void>;
  /** The client's address of a request this server received. */
  requestIP(request: Request): { address: string; port: number } | null;
}

/** What `Bun.serve` is given. */
export interface BunServeOptions {
  readonly port: number;
  readonly hostname: string;
  /** Seconds a connection may stay silent; 0 for no limit (at most 255). */
  readonly idleTimeout: number;
  /** The largest body Bun accepts before answering 413 itself. */
  readonly maxRequestBodySize: number;
  /** Answers one request. */
  fetch(request: Request, server: BunServer): Response | Promise<Response>;
  /** Answers a request whose `fetch` threw past the engine (never, unless the engine has a bug). */
  error(error: Error): Response;
}

/** The `Bun` global, or undefined off Bun. */
export function bunGlobal(): { serve(options: BunServeOptions): BunServer } | undefined {
  return (globalThis as { Bun?: { serve(options: BunServeOptions): BunServer } }).Bun;
}

/** What a web Response's body may be. */
export type ResponseBody = ConstructorParameters<typeof Response>[0];

/** What a web Response's headers may be given as. */
export type ResponseHeaders = NonNullable<ConstructorParameters<typeof Headers>[0]>;
