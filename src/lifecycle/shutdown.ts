/**
 * The graceful shutdown, every phase with its share of the deadline.
 * @module
 */
import type { ShutdownHook } from '../contracts.js';
import { describeError } from '../errors/describe.js';
import type { Logger } from '../logger/index.js';
import type { Connections, EngineServer } from './engine-server.js';
import { runHooks } from './hooks.js';
import { raceAbort, raceTime } from './race.js';

/** What a graceful shutdown works on. */
export interface ShutdownPlan {
  /** The engine's listening side. */
  readonly engine: EngineServer;
  /** The listening server's connections; undefined when the app never listened. */
  readonly connections: Connections | undefined;
  readonly hooks: readonly ShutdownHook[];
  readonly logger: Logger;
  /** How long the shutdown may take once the listener closes. */
  readonly timeoutMs: number;
  /** How long to keep serving first (readiness already failing). */
  readonly drainDelayMs: number;
  /** Aborted when the hooks' time is up; its signal is the one the hooks share. */
  readonly deadline: AbortController;
}

/** How a shutdown went. */
export interface ShutdownOutcome {
  /** True when every phase finished in time, nothing was cut off and no hook failed. */
  ok: boolean;
  /** When (Date.now() ms) the shutdown's time is up: the final log flush must end by then. */
  endsAt: number;
}

/** The phases' shares of `timeoutMs`: when draining ends and when the hooks' signal aborts. */
export function shutdownShares(timeoutMs: number): { drainMs: number; hooksMs: number } {
  const flushMs = Math.min(1_000, Math.ceil(timeoutMs / 10));
  return { drainMs: Math.floor(timeoutMs / 2), hooksMs: timeoutMs - flushMs };
}

/**
 * The graceful shutdown, after the shutdown has begun (readiness answers 503):
 * 1. keep serving for `drainDelayMs`, so a load balancer stops sending first;
 * 2. stop accepting connections and drain: idle keep-alive connections are closed, requests in
 *    flight finish; at most half of `timeoutMs`, then requests not yet answered are cut off;
 * 3. run the hooks in order, sharing one signal that aborts at `timeoutMs` minus the flush's
 *    share (a tenth, at most 1 s); responses already being sent go on meanwhile, and are cut
 *    off if still going when that signal aborts;
 * 4. leave the rest of `timeoutMs` to flush the log (the caller does, by `endsAt`).
 * Every cut is logged. Never rejects.
 */
export async function gracefulShutdown(plan: ShutdownPlan): Promise<ShutdownOutcome> {
  const { engine, connections, logger, timeoutMs } = plan;
  if (plan.drainDelayMs > 0) {
    logger.info('readiness answers 503; serving on for %d ms before draining', plan.drainDelayMs);
    await new Promise((resolve) => setTimeout(resolve, plan.drainDelayMs));
  }
  const endsAt = Date.now() + timeoutMs;
  const { drainMs, hooksMs } = shutdownShares(timeoutMs);
  const controller = plan.deadline;
  const signal = controller.signal;
  // A ref'd timer, unlike AbortSignal.timeout(): a hung hook must not let the process end early.
  const deadline = setTimeout(
    () => controller.abort(new Error(`shutdown deadline of ${hooksMs} ms passed`)),
    hooksMs,
  );
  let ok = true;
  // close() closes the connections idle at that moment; a keep-alive connection whose request
  // finishes later would otherwise hold the drain until the client drops it.
  const sweep = setInterval(() => engine.closeIdle(), 50);
  try {
    let drained = false;
    let closeFailed = false;
    // A close() that rejects (an onClose hook that throws) still leaves the hooks to run.
    const closed = engine.close().then(
      () => {
        drained = true;
      },
      (err: unknown) => {
        closeFailed = true;
        logger.warn('closing the server failed: %s', describeError(err));
      },
    );
    if (!(await raceTime(closed, drainMs, signal))) {
      const cut = connections?.cutUnanswered(`not answered within the drain's ${drainMs} ms`);
      if (cut) {
        ok = false;
        logger.warn('drain: cut off %d request(s) not answered within %d ms', cut, drainMs);
      }
    }
    ok = (await runHooks(plan.hooks, signal, logger)) && ok && !closeFailed;
    // A hook that ran to the deadline must not make a listener closed long ago look open.
    if (!drained && !(await raceAbort(closed, signal))) {
      ok = false;
      const cut = connections?.cutAll('the shutdown deadline passed') ?? 0;
      logger.warn('drain: cut off %d connection(s) still open at the shutdown deadline', cut);
      engine.closeAll();
    }
    if (closeFailed) {
      ok = false;
      connections?.cutAll('closing the server failed');
      engine.closeAll();
    }
  } catch (err) {
    ok = false;
    logger.warn('shutdown failed: %s', err instanceof Error ? err.message : String(err));
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
    connections?.stop();
  }
  return { ok, endsAt };
}

/**
 * Flushes the log synchronously, giving up at `endsAt` (a slow or stalled reader of stdout
 * must not hold the exit). True when everything was written.
 */
export function flushBy(logger: Logger, endsAt: number): boolean {
  try {
    logger.flushSync(Math.max(0, endsAt - Date.now()));
    return true;
  } catch {
    return false;
  }
}
