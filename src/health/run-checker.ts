/**
 * Running one health checker under a timeout.
 * @module
 */
import type { HealthChecker } from '../contracts.js';

/**
 * Runs `checker` with its own signal, aborted after `timeoutMs`: `UP`, `UP: <warning>` (a
 * checker that resolved a string), or `DOWN: <reason>`. A checker past its timeout is DOWN
 * without being waited for.
 */
export async function runChecker(checker: HealthChecker, timeoutMs: number): Promise<string> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      const reason = `timed out after ${timeoutMs} ms`;
      controller.abort(new Error(reason));
      resolve(`DOWN: ${reason}`);
    }, timeoutMs);
  });
  const checked = (async () => {
    const warning = await checker.check(controller.signal);
    return typeof warning === 'string' && warning !== '' ? `UP: ${warning}` : 'UP';
  })().catch((err: unknown) => `DOWN: ${reasonOf(err)}`);
  try {
    return await Promise.race([checked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function reasonOf(err: unknown): string {
  try {
    const message =
      err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
    return message || 'check failed';
  } catch {
    return 'check failed';
  }
}
