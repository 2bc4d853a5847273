/**
 * The panel's server-sent events: the backlog, then each request and log line as it happens.
 * Written straight to the socket; a client that stops reading is dropped, so memory stays bounded.
 * @module
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { PanelEvent, PanelFeed } from './feed.js';

/** Bytes a slow client may have waiting before its stream is closed. */
const MAX_BUFFERED = 1024 * 1024;
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

function frame(event: PanelEvent): string {
  return `id: ${event.data.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * Streams `feed` until the client leaves or `until` aborts: on the Fastify engine by taking
 * `reply` over (returns `reply`), on an engine without Node's response (the Bun engine) as a
 * stream the handler answers with (returned).
 */
export function streamFeed(
  reply: FastifyReply,
  feed: PanelFeed,
  headers: Readonly<Record<string, string>>,
  until: AbortSignal,
): unknown {
  if ((reply as { raw?: unknown }).raw === undefined) return feedStream(reply, feed, until);
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  if (until.aborted) {
    raw.end();
    return;
  }
  raw.write(`retry: 2000\nevent: hello\ndata: {}\n\n${feed.backlog().map(frame).join('')}`);
  const unsubscribe = feed.subscribe((event) => {
    if (raw.writableLength > MAX_BUFFERED) raw.destroy();
    else raw.write(frame(event));
  });
  const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const stop = () => raw.end();
  until.addEventListener('abort', stop, { once: true });
  raw.once('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    until.removeEventListener('abort', stop);
  });
  return reply;
}

/** The feed as a stream the handler answers with; a reader that falls behind is dropped. */
function feedStream(reply: FastifyReply, feed: PanelFeed, until: AbortSignal): PassThrough {
  reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no');
  const out = new PassThrough();
  if (until.aborted) return out.end() as PassThrough;
  out.write(`retry: 2000\nevent: hello\ndata: {}\n\n${feed.backlog().map(frame).join('')}`);
  const unsubscribe = feed.subscribe((event) => {
    if (out.readableLength + out.writableLength > MAX_BUFFERED) out.destroy();
    else out.write(frame(event));
  });
  const heartbeat = setInterval(() => out.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const stop = () => out.end();
  until.addEventListener('abort', stop, { once: true });
  out.once('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    until.removeEventListener('abort', stop);
  });
  return out;
}
