/**
 * Running the shutdown hooks one after another under one shared signal.
 * @module
 */
import type { ShutdownHook } from '../contracts.js';
import { describeError } from '../errors/describe.js';
import type { Logger } from '../logger/index.js';
import { raceAbort } from './race.js';

/**
 * Runs `hooks` in order, each given `signal`. A hook that throws is logged and the next still
 * runs; one still running when `signal` aborts is abandoned and the rest are skipped, each
 * logged. Resolves true when every hook finished in time without failing.
 */
export async function runHooks(
  hooks: readonly ShutdownHook[],
  signal: AbortSignal,
  logger: Logger,
): Promise<boolean> {
  let ok = true;
  for (let i = 0; i < hooks.length; i++) {
    const hook = hooks[i]!;
    const name = hookName(hook, i);
    if (signal.aborted) {
      ok = false;
      logger.warn('shutdown hook %s not run: the shutdown deadline passed', name);
      continue;
    }
    try {
      const done = await raceAbort(
        Promise.resolve().then(() => hook(signal)),
        signal,
      );
      if (!done) {
        ok = false;
        logger.warn('shutdown hook %s abandoned: still running at the shutdown deadline', name);
      }
    } catch (err) {
      ok = false;
      logger.warn('shutdown hook %s failed: %s', name, describeError(err));
    }
  }
  return ok;
}

function hookName(hook: ShutdownHook, index: number): string {
  return hook.name ? `#${index + 1} (${hook.name})` : `#${index + 1}`;
}
