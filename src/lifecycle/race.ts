/**
 * Waiting for work against a signal or a time limit.
 * @module
 */

/** Resolves true when `work` settles first, false when `signal` aborts first. */
export function raceAbort(work: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Resolves true when `work` settles within `ms` (and before `signal` aborts), else false. */
export async function raceTime(
  work: Promise<unknown>,
  ms: number,
  signal: AbortSignal,
): Promise<boolean> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), ms);
  const onAbort = () => limit.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await raceAbort(work, limit.signal);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
