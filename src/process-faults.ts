/**
 * What a serving process does about errors nobody caught.
 * @module
 */
import { inspect } from 'node:util';
import { describeError } from './errors/describe.js';
import type { Logger } from './logger/index.js';

/**
 * Watches the process for errors no code caught, while the app serves:
 * - an unhandled promise rejection (background work a handler did not await) is logged with its
 *   stack, and the process keeps serving: one lost background task is not worth every request
 *   in flight;
 * - an uncaught exception is logged with its stack and ends the process with code 1 (after the
 *   log is flushed): the stack it unwound may have left any state half-changed, so the safe
 *   move is to let the supervisor start a clean process.
 * Returns a function that stops watching.
 */
export function watchProcessFaults(logger: Logger): () => void {
  const onRejection = (reason: unknown) => {
    logger.warn('unhandled promise rejection (still serving): %s', describeReason(reason));
  };
  const onException = (error: unknown) => {
    logger.error('uncaught exception, exiting: %s', describeReason(error));
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return function stopWatchingProcessFaults() {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

// A rejection with a plain object says more through inspect() than through String().
function describeReason(reason: unknown): string {
  if (reason instanceof Error || typeof reason === 'string') return describeError(reason);
  try {
    return inspect(reason, { depth: 2, breakLength: Number.POSITIVE_INFINITY });
  } catch {
    return 'an unprintable value';
  }
}
