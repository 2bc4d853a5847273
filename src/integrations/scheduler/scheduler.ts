import type { Cron } from 'croner';
import type { App, Module } from '../../app.js';
import type {
  HealthChecker,
  JobStatus,
  JobTick,
  Scheduler,
  SchedulerStart,
} from '../../contracts.js';
import { describeError } from '../../errors/describe.js';
import { raceAbort } from '../../lifecycle/race.js';
import type { Logger } from '../../logger/index.js';
import { stdoutLogger } from '../../logger/logger.js';
import { checkLockOptions, compileJob } from './job.js';
import { type JobHealthOptions, jobHealthChecker } from './job-health.js';
import { claimTick, type JobLock } from './lock.js';
import type { CronJob, SchedulerOptions } from './types.js';

interface Entry {
  readonly job: CronJob;
  readonly cron: Cron;
  running: Promise<void> | undefined;
  timer: NodeJS.Timeout | undefined;
  next: Date | null;
  runs: number;
  lastRun: Date | null;
  failed: boolean;
  lastError: unknown;
}

// setTimeout holds at most 2^31-1 ms; a later tick is re-armed when that timer fires.
const MAX_DELAY = 2 ** 31 - 1;

/**
 * A Scheduler on croner: 5- or 6-field cron expressions in a time zone. A run never overlaps
 * the previous run of the same job; a job that throws is logged with its name and the others go
 * on. With a `lock`, each tick runs on the one replica that claims it; a replica that cannot
 * claim it in time skips it (never runs it unlocked). No run starts once shutdown has begun;
 * every handler's signal aborts then, and `stop()` waits for the running jobs until its own
 * signal aborts.
 * @example
 * const jobs = scheduler({ lock: redisLock(redis) });
 * jobs.add({ name: 'purge-sessions', schedule: '0 3 * * *', handler: (signal, { scheduledAt }) => purge(signal, scheduledAt) });
 * app.use(jobs); // registers it, its health checker, and takes the app's logger
 */
export class CronScheduler implements Scheduler, Module {
  readonly #entries = new Map<string, Entry>();
  readonly #abort = new AbortController();
  readonly #timezone: string | undefined;
  readonly #lock: JobLock | undefined;
  readonly #lockTimeoutMs: number;
  readonly #lockTtlMs: number;
  #logger: Logger | undefined;
  #state: 'created' | 'started' | 'stopped' = 'created';

  /** Prefer `scheduler(options)`. */
  constructor({
    timezone,
    logger,
    lock,
    lockTimeoutMs = 2000,
    lockTtlMs = 60_000,
  }: SchedulerOptions = {}) {
    checkLockOptions(lock, lockTimeoutMs, lockTtlMs);
    this.#timezone = timezone;
    this.#logger = logger;
    this.#lock = lock;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#lockTtlMs = lockTtlMs;
  }

  /** Adds a job; throws, naming the job, on a bad name, schedule or time zone. */
  add(job: CronJob): this {
    if (this.#state === 'stopped') throw new Error('scheduler: cannot add a job after stop()');
    const cron = compileJob(job, this.#timezone, (name) => this.#entries.has(name));
    const entry: Entry = {
      job,
      cron,
      running: undefined,
      timer: undefined,
      next: null,
      runs: 0,
      lastRun: null,
      failed: false,
      lastError: undefined,
    };
    this.#entries.set(job.name, entry);
    if (this.#state === 'started') this.#arm(entry, cron.nextRun());
    return this;
  }

  /** Registers this scheduler and its health checker on the app, and logs to the app's logger. */
  register(app: App): void {
    this.#logger ??= app.logger;
    app.registerScheduler(this).registerHealthChecker(this.healthChecker());
  }

  /**
   * Starts running the jobs on their schedules; `listen()` calls it with the app's logger and
   * the signal of the start of shutdown, after which no run starts.
   */
  start(context?: SchedulerStart): void {
    if (this.#state !== 'created') return;
    this.#state = 'started';
    if (context) {
      this.#logger ??= context.logger;
      const halt = () => this.#halt();
      context.shutdownBegun.addEventListener('abort', halt, { once: true });
      if (context.shutdownBegun.aborted) {
        halt();
        return;
      }
    }
    for (const entry of this.#entries.values()) this.#arm(entry, entry.cron.nextRun());
  }

  /**
   * Stops scheduling, aborts the signal the handlers got, and waits for the running jobs until
   * `signal` aborts; jobs still running then are named in a warning and left behind.
   */
  async stop(signal: AbortSignal): Promise<void> {
    this.#halt();
    const running = [...this.#entries.values()].filter((e) => e.running);
    if (running.length === 0) return;
    const finished = await raceAbort(Promise.all(running.map((e) => e.running)), signal);
    if (!finished) {
      const names = running.filter((e) => e.running).map((e) => e.job.name);
      this.#log.warn('jobs still running when the shutdown deadline passed: %s', names.join(', '));
    }
  }

  /**
   * Runs a job now, outside its schedule and without the lock (for tests, or work at boot).
   * Resolves true when the run is over, false when it was skipped because the previous run is
   * still going.
   */
  async runNow(name: string): Promise<boolean> {
    const entry = this.#entries.get(name);
    if (!entry) {
      throw new Error(
        `scheduler: no job named "${name}"; the jobs are: ${[...this.#entries.keys()].join(', ') || 'none'}`,
      );
    }
    if (this.#state === 'stopped') throw new Error(`scheduler: cannot run "${name}" after stop()`);
    return this.#run(entry, { scheduledAt: new Date() });
  }

  /** The status of every job, in the order they were added. */
  status(): JobStatus[] {
    return [...this.#entries.values()].map((e) => ({
      name: e.job.name,
      schedule: e.job.schedule,
      running: e.running !== undefined,
      runs: e.runs,
      lastError: e.lastError,
      nextRun: this.#state === 'started' ? e.next : null,
      lastRun: e.lastRun,
    }));
  }

  /**
   * A health checker: a job whose last run failed shows as `UP: job … failed: …`, and turns it
   * DOWN only when `failOn` names it (or is `'any'`).
   */
  healthChecker(options: JobHealthOptions = {}): HealthChecker {
    const entries = this.#entries;
    return jobHealthChecker(
      () => [...entries.values()].map((e) => ({ ...e, name: e.job.name })),
      options,
    );
  }

  get #log(): Logger {
    // Used outside an app and before one starts it: a logger in the app's format.
    this.#logger ??= stdoutLogger();
    return this.#logger;
  }

  #halt(): void {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    for (const entry of this.#entries.values()) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.next = null;
    }
    this.#abort.abort(new Error('the scheduler is stopping: the service is shutting down'));
  }

  #arm(entry: Entry, at: Date | null): void {
    entry.next = at;
    if (at === null) return;
    const delay = Math.min(Math.max(0, at.getTime() - Date.now()), MAX_DELAY);
    entry.timer = setTimeout(() => {
      if (this.#state !== 'started') return;
      // A timer can fire early (a capped delay, a clock step): wait again for the same tick.
      if (Date.now() < at.getTime()) return this.#arm(entry, at);
      this.#arm(entry, entry.cron.nextRun(at));
      void this.#tick(entry, at);
    }, delay);
  }

  async #tick(entry: Entry, scheduledAt: Date): Promise<void> {
    const name = entry.job.name;
    if (entry.running) {
      this.#log.debug('job %s still running: tick skipped', name);
      return;
    }
    if (!this.#lock) {
      await this.#run(entry, { scheduledAt });
      return;
    }
    if (!(await this.#claim(name, scheduledAt))) return;
    // The tick is ours now: no other replica runs it, so it runs here or is logged as skipped.
    if (this.#state !== 'started') {
      this.#skipped(name, scheduledAt, 'the service began shutting down while it was claimed');
    } else if (!(await this.#run(entry, { scheduledAt }))) {
      this.#skipped(name, scheduledAt, 'the previous run was still going when it was claimed');
    }
  }

  #skipped(name: string, scheduledAt: Date, why: string): void {
    this.#log.warn('job %s: tick of %s skipped: %s', name, scheduledAt.toISOString(), why);
  }

  /** Whether this replica claimed the tick; a claim that fails or takes too long is a skip. */
  async #claim(name: string, scheduledAt: Date): Promise<boolean> {
    try {
      return await claimTick(this.#lock!, name, scheduledAt, this.#lockTtlMs, this.#lockTimeoutMs);
    } catch (err) {
      this.#skipped(name, scheduledAt, `the lock could not be acquired: ${messageOf(err)}`);
      return false;
    }
  }

  async #run(entry: Entry, tick: JobTick): Promise<boolean> {
    if (entry.running) return false;
    const { name, handler } = entry.job;
    // Marked running before the handler starts: a handler may throw before its first await.
    let finish!: () => void;
    entry.running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    entry.lastRun = new Date();
    try {
      await handler(this.#abort.signal, tick);
      entry.failed = false;
      entry.lastError = undefined;
    } catch (err) {
      entry.failed = true;
      entry.lastError = err;
      this.#log.warn('job %s failed: %s', name, describeError(err));
    } finally {
      entry.runs++;
      entry.running = undefined;
      finish();
    }
    return true;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Creates a cron scheduler; `app.use()` it (or `app.registerScheduler()` it) so `listen()`
 * starts it and shutdown stops it.
 * @example app.use(scheduler({ timezone: 'Europe/Lisbon', lock: redisLock(redis) }).add(job));
 */
export function scheduler(options: SchedulerOptions = {}): CronScheduler {
  return new CronScheduler(options);
}
