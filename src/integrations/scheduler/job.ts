import type { Cron } from 'croner';
import type { JobLock } from './lock.js';
import { croner } from './peer.js';
import type { CronJob } from './types.js';

/**
 * Checks a job and compiles its schedule; throws, naming the job, on a bad name, a name
 * `taken`, a bad handler, schedule or time zone.
 */
export function compileJob(
  job: CronJob,
  defaultTimezone: string | undefined,
  taken: (name: string) => boolean,
): Cron {
  const { name, schedule, handler } = job ?? {};
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(
      `scheduler: a job's name should be a non-empty string, instead got ${JSON.stringify(name)}`,
    );
  }
  if (taken(name)) throw new Error(`scheduler: a job named "${name}" is already added`);
  if (typeof handler !== 'function') {
    throw new TypeError(
      `scheduler: job "${name}": handler should be a function, instead got ${typeof handler}`,
    );
  }
  const timezone = job.timezone ?? defaultTimezone;
  try {
    // Used only to compute run times: the scheduler arms its own timers, so each run knows
    // the exact time it was scheduled for.
    const cron = new croner.Cron(String(schedule), {
      ...(timezone === undefined ? {} : { timezone }),
      paused: true,
    });
    cron.nextRun(); // a bad time zone only shows when a date is computed
    return cron;
  } catch (err) {
    throw new TypeError(
      `scheduler: job "${name}": invalid schedule ${JSON.stringify(schedule)}${timezone ? ` in ${timezone}` : ''}: ${(err as Error).message}`,
    );
  }
}

/** Throws, naming the option, on a lock without `acquire` or a bad timeout or TTL. */
export function checkLockOptions(
  lock: JobLock | undefined,
  lockTimeoutMs: number,
  lockTtlMs: number,
): void {
  if (lock !== undefined && typeof lock?.acquire !== 'function') {
    throw new TypeError('scheduler: lock should have an acquire(job, scheduledAt, ttlMs) method');
  }
  for (const [key, value] of [
    ['lockTimeoutMs', lockTimeoutMs],
    ['lockTtlMs', lockTtlMs],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`scheduler: ${key} should be a positive number, instead got ${value}`);
    }
  }
}
