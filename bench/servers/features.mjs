// What the contenders with features share: the Zod schemas, the request log file and the 422
// body, so that all of them validate the same way and log the same amount.
import sonicBoom from 'sonic-boom';
import { z } from 'zod';

/** `GET /users/:id`: the id is a positive integer. */
export const UserParams = z.object({ id: z.coerce.number().int().positive() });
/** The body of `POST /users`. */
export const NewUser = z.object({ name: z.string().min(1).max(100), email: z.email() });
/** A user as answered, keys in this order. */
export const User = z.object({ id: z.number().int(), name: z.string(), email: z.email() });

/**
 * The request log file named by LOG_FILE, written asynchronously in 4 KiB chunks; flushed and
 * the process ended on SIGTERM so that a check can count its lines. `settleMs`: how long to let
 * lines still to come be written first (a framework that logs after the answer has gone out).
 */
export function openLogFile(settleMs = 0) {
  const dest = process.env.LOG_FILE;
  if (!dest) throw new Error('LOG_FILE is not set');
  const stream = new sonicBoom.SonicBoom({ dest, sync: false, minLength: 4096 });
  exitOnSigterm(() => stream.flushSync(), settleMs);
  return stream;
}

/** Ends the process on SIGTERM after `flush`, `settleMs` later. */
export function exitOnSigterm(flush, settleMs = 0) {
  const exit = () => {
    try {
      flush();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => {
    if (settleMs > 0) setTimeout(exit, settleMs);
    else exit();
  });
}

/** A JSON request-log line like keelson's: level, time, method, path, status, duration. */
export function requestLine(method, path, status, durationMs) {
  return `${JSON.stringify({
    level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
    time: Date.now(),
    method,
    path,
    status,
    duration: `${durationMs.toFixed(1)}ms`,
  })}\n`;
}

/** The 422 body of the hand-assembled contenders. */
export function invalid(issues) {
  return {
    status: 422,
    title: 'Unprocessable Content',
    issues: issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}
