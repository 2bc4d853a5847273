/**
 * `c.sse()`: an async iterable of events written as a `text/event-stream` response.
 * @module
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../errors/describe.js';
import type { Logger } from '../logger/index.js';
import type { AppRuntime } from '../routing/runtime.js';
import type { Sent } from '../routing/schema-types.js';
import { formatEvent, HEARTBEAT, type ServerSentEvent } from './format.js';
import { EVENT_STREAM_TYPE } from './schema.js';

/** Options of `c.sse()`. */
export interface SseOptions {
  /** Interval of the comment heartbeat that keeps proxies from closing an idle stream. @default 15000 */
  heartbeatMs?: number;
}

/** What the stream needs of the request's context. */
export interface StreamTarget {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  readonly log: Logger;
}

const STOP = Symbol('stop');

/**
 * Answers with an event stream fed by `source`. The iteration stops, and `source.return()` is
 * called, when the client goes away or the app begins to shut down; the stream then ends
 * cleanly, so it never holds the shutdown to its deadline.
 */
export function sendEventStream(
  c: StreamTarget,
  runtime: AppRuntime,
  source: AsyncIterable<ServerSentEvent>,
  { heartbeatMs = 15_000 }: SseOptions = {},
): Sent {
  if (!source || typeof source[Symbol.asyncIterator] !== 'function') {
    throw new TypeError(`c.sse() needs an async iterable of events, got ${typeof source}`);
  }
  if (!Number.isFinite(heartbeatMs) || heartbeatMs <= 0) {
    throw new TypeError(`heartbeatMs must be a number > 0, got ${String(heartbeatMs)}`);
  }
  const { reply } = c;
  // @fastify/compress never compresses text/event-stream; `no-transform` tells proxies the same.
  reply
    .header('content-type', `${EVENT_STREAM_TYPE}; charset=utf-8`)
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no');
  const out = new PassThrough();
  // A HEAD asks for the headers only: the source is never started.
  if (c.request.method === 'HEAD') return out.end() as unknown as Sent;
  // Opens the response at once, so the client sees the headers before the first event.
  out.write(': stream open\n\n');
  void pump(c, runtime, source, out, heartbeatMs);
  // The stream is the handler's answer; the engine pipes it (a reply is thenable: not it).
  return out as unknown as Sent;
}

async function pump(
  c: StreamTarget,
  runtime: AppRuntime,
  source: AsyncIterable<ServerSentEvent>,
  out: PassThrough,
  heartbeatMs: number,
): Promise<void> {
  const client = c.signal;
  const shutdown = runtime.shutdownBegun;
  let onStop: () => void = () => {};
  const stopped = new Promise<typeof STOP>((resolve) => {
    onStop = () => resolve(STOP);
  });
  if (client.aborted || shutdown.aborted) onStop();
  client.addEventListener('abort', onStop, { once: true });
  shutdown.addEventListener('abort', onStop, { once: true });
  const heartbeat = setInterval(() => out.write(HEARTBEAT), heartbeatMs);
  heartbeat.unref();

  let it: AsyncIterator<ServerSentEvent> | undefined;
  let done = false;
  try {
    // Inside the try: a source whose iterator cannot be made ends the stream like any failure.
    it = source[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([it.next(), stopped]);
      if (next === STOP) break;
      if (next.done) {
        done = true;
        break;
      }
      if (!out.write(formatEvent(next.value))) {
        if ((await Promise.race([once(out, 'drain'), stopped])) === STOP) break;
      }
    }
  } catch (err) {
    c.log.warn('event stream %s ended by an error: %s', c.request.url, describeError(err));
  } finally {
    clearInterval(heartbeat);
    client.removeEventListener('abort', onStop);
    shutdown.removeEventListener('abort', onStop);
    if (it && !done) returnQuietly(it);
    out.end();
  }
}

// Not awaited: a generator blocked in an await finishes when that await settles. A return()
// that throws or rejects has nothing left to end: the stream is over.
function returnQuietly(it: AsyncIterator<ServerSentEvent>): void {
  try {
    Promise.resolve(it.return?.()).catch(() => {});
  } catch {}
}
