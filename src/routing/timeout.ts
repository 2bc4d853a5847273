/**
 * Route timeouts: when `timeoutMs` passes, `c.signal` aborts and the client gets 504 `TIMEOUT`.
 * Only routes with a timeout are wrapped; the others pay nothing.
 * @module
 */
import { type KError, keelsonError } from '../errors/index.js';
import type { Endpoint } from './compose.js';
import { ABORT_REQUEST } from './context.js';

/** The answer of a route that ran out of time: 504 problem+json, code `TIMEOUT`. */
export function timeoutError(ms: number): KError {
  return keelsonError('TIMEOUT', `The request took longer than ${ms} ms.`);
}

/** Throws unless `ms` is a usable timeout: a whole number of milliseconds, 0 for none. */
export function checkTimeout(ms: unknown, where: string): void {
  if (ms === undefined) return;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > 2_147_483_647) {
    throw new TypeError(
      `${where}: timeoutMs must be a whole number of milliseconds (0 for none), got ${String(ms)}`,
    );
  }
}

/**
 * Runs `chain` under a timer of `ms`: when it fires first, the context's signal aborts with the
 * timeout error and the error is sent. Whatever the chain answers afterwards is dropped, so a
 * handler that ignores the signal cannot answer twice.
 */
export function withTimeout(chain: Endpoint, ms: number): Endpoint {
  return function timedRoute(c) {
    const reply = c.reply;
    let timedOut = false;
    const timer = setTimeout(() => {
      if (reply.sent) return;
      timedOut = true;
      const error = timeoutError(ms);
      c[ABORT_REQUEST](error);
      reply.send(error);
    }, ms);
    let out: unknown;
    try {
      out = chain(c);
    } catch (err) {
      clearTimeout(timer);
      throw err;
    }
    // Any thenable, not only a Promise: a handler may return a lazy query (`db.sql\`…\``).
    if (!isThenable(out)) {
      clearTimeout(timer);
      return out;
    }
    return Promise.resolve(out).then(
      (result) => {
        clearTimeout(timer);
        return result;
      },
      (err: unknown) => {
        clearTimeout(timer);
        // A handler that stopped because its signal aborted: the 504 is already the answer.
        if (timedOut) return reply;
        throw err;
      },
    );
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
