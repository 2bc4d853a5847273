import type { Job } from '../../contracts.js';
import type { Logger } from '../../logger/index.js';
import type { JobLock } from './lock.js';

/** Options of `scheduler()`. */
export interface SchedulerOptions {
  /** The IANA time zone schedules are read in, e.g. `'Europe/Lisbon'`. @default the process's */
  timezone?: string;
  /**
   * Where failed runs and skipped ticks are reported.
   * @default the app's logger (from `app.use(jobs)` or `listen()`); a text logger before that
   */
  logger?: Logger;
  /** Runs each tick on one replica only, e.g. `redisLock(redis)`. @default none: every replica runs every tick */
  lock?: JobLock;
  /** How long a replica waits for the lock before skipping the tick. @default 2000 */
  lockTimeoutMs?: number;
  /** How long a claimed tick stays claimed; longer than the replicas' clock skew. @default 60000 */
  lockTtlMs?: number;
}

/** A job with an optional time zone of its own. */
export interface CronJob extends Job {
  /** The IANA time zone of this job's schedule. @default the scheduler's */
  timezone?: string;
}
