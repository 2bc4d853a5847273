/**
 * What idempotency keeps of a request and its answer: the request's fingerprint, the headers
 * the handler set, the body it returned, and how a replay gives them back.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Context } from '../routing/context.js';
import type { StoredAnswer, StoredBody } from './store.js';

/** Headers the engine computes for every answer: never stored, never replayed. */
const ENGINE_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'date']);

/** The reply's headers now, to tell later which ones the handler set. */
export type HeaderSnapshot = Readonly<Record<string, unknown>>;

/** A copy of the reply's headers. */
export function snapshotHeaders(c: Context): HeaderSnapshot {
  return { ...c.reply.getHeaders() };
}

/** Stable text of a header value, to compare two snapshots. */
function text(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join('\n') : String(value);
}

/** The headers set or changed since `before`: those of the handler and the middleware inside. */
function headersSince(
  before: HeaderSnapshot,
  after: HeaderSnapshot,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(after)) {
    if (value === undefined || ENGINE_HEADERS.has(name)) continue;
    const was = before[name];
    if (was !== undefined && text(was) === text(value)) continue;
    out[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

function isStream(value: object): boolean {
  return typeof (value as { pipe?: unknown }).pipe === 'function';
}

/** The body in a storable form, or undefined when it cannot be kept (a stream, a sent reply). */
function storedBody(c: Context, result: unknown): StoredBody | undefined {
  if (result === undefined) return { kind: 'none' };
  if (typeof result === 'string') return { kind: 'text', text: result };
  if (result instanceof Uint8Array) {
    return { kind: 'bytes', base64: Buffer.from(result).toString('base64') };
  }
  if (result === c.reply || (typeof result === 'object' && result !== null && isStream(result))) {
    return undefined;
  }
  try {
    const json = JSON.stringify(result);
    return json === undefined ? undefined : { kind: 'json', text: json };
  } catch {
    return undefined; // a BigInt, a cycle: the answer fails the same way when it is sent
  }
}

/**
 * The answer to keep after the handler returned `result`, or undefined when it cannot be kept:
 * the reply was already sent (`c.sse`, a manual send) or the body is a stream.
 */
export function captureAnswer(
  c: Context,
  before: HeaderSnapshot,
  result: unknown,
): StoredAnswer | undefined {
  if (c.reply.sent) return undefined;
  const body = storedBody(c, result);
  if (!body) return undefined;
  return {
    status: c.reply.statusCode,
    headers: headersSince(before, snapshotHeaders(c)),
    body,
  };
}

/** Sets the stored status and headers on the reply and returns the body for the route to send. */
export function replayAnswer(c: Context, answer: StoredAnswer): unknown {
  c.reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) c.reply.header(name, value);
  c.reply.header('idempotent-replayed', 'true');
  const body = answer.body;
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'text':
      return body.text;
    case 'bytes':
      return Buffer.from(body.base64, 'base64');
    case 'json':
      return JSON.parse(body.text) as unknown;
  }
}

/** What makes two requests "the same": the method, the URL (path and query) and the body. */
export function fingerprintOf(c: Context): string {
  const hash = createHash('sha256').update(c.request.method).update('\n').update(c.request.url);
  hash.update('\n');
  const body = c.request.body;
  if (typeof body === 'string') hash.update('s').update(body);
  else if (body instanceof Uint8Array) hash.update('b').update(body);
  else if (body !== undefined && body !== null) {
    try {
      hash.update('j').update(JSON.stringify(body) ?? '');
    } catch {
      hash.update('?');
    }
  }
  return hash.digest('base64url');
}
