import type { FastifyInstance } from 'fastify';
import type { ShutdownHook } from './contracts.js';
import { describeError } from './errors/describe.js';
import type { Logger } from './logger/index.js';

/** What a graceful shutdown works on. */
export interface ShutdownPlan {
  readonly fastify: FastifyInstance;
  readonly hooks: readonly ShutdownHook[];
  readonly logger: Logger;
  /** Time from the start of the shutdown until the shared signal aborts. */
  readonly timeoutMs: number;
  /** Aborted at the deadline; its signal is the one the hooks share. @default a new one */
  readonly deadline?: AbortController;
}

type Raced = { done: true } | { done: false };

/** Waits for `work`, or for `signal` to abort, whichever comes first. */
function raceAbort(work: Promise<unknown>, signal: AbortSignal): Promise<Raced> {
  if (signal.aborted) return Promise.resolve({ done: false });
  return new Promise<Raced>((resolve, reject) => {
    const onAbort = () => resolve({ done: false });
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve({ done: true });
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * The graceful shutdown: stop accepting connections and drain in-flight requests, then run the
 * hooks one after another with one shared signal that aborts `timeoutMs` after the start. A
 * hook that throws is logged and the next still runs; one still running at the deadline is
 * abandoned. Resolves true when every step finished in time and no hook failed.
 */
export async function gracefulShutdown(plan: ShutdownPlan): Promise<boolean> {
  const { fastify, hooks, logger, timeoutMs } = plan;
  const controller = plan.deadline ?? new AbortController();
  // A ref'd timer, unlike AbortSignal.timeout(): a hung hook must not let the process end early.
  const deadline = setTimeout(
    () => controller.abort(new Error(`shutdown deadline of ${timeoutMs} ms passed`)),
    timeoutMs,
  );
  const signal = controller.signal;
  let ok = true;
  try {
    // close() closes the connections idle at that moment; a keep-alive connection whose
    // in-flight request finishes later would otherwise hold the drain until the client drops it.
    const sweep = setInterval(() => fastify.server.closeIdleConnections?.(), 50);
    let drained: Raced;
    try {
      drained = await raceAbort(fastify.close(), signal);
    } finally {
      clearInterval(sweep);
    }
    if (!drained.done) {
      ok = false;
      logger.warn('requests still in flight at the shutdown deadline; closing their connections');
      fastify.server.closeAllConnections?.();
    }
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]!;
      const name = hookName(hook, i);
      if (signal.aborted) {
        ok = false;
        logger.warn('shutdown hook %s not run: the shutdown deadline passed', name);
        continue;
      }
      try {
        const run = await raceAbort(
          Promise.resolve().then(() => hook(signal)),
          signal,
        );
        if (!run.done) {
          ok = false;
          logger.warn('shutdown hook %s abandoned: still running at the shutdown deadline', name);
        }
      } catch (err) {
        ok = false;
        logger.warn('shutdown hook %s failed: %s', name, describeError(err));
      }
    }
  } finally {
    clearTimeout(deadline);
  }
  logger.flushSync();
  return ok;
}

function hookName(hook: ShutdownHook, index: number): string {
  return hook.name ? `#${index + 1} (${hook.name})` : `#${index + 1}`;
}
