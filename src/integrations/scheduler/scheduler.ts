import type { Cron } from 'croner';
import type { HealthChecker, Job, Scheduler } from '../../contracts.js';
import { describeError } from '../../errors/describe.js';
import { type Logger, newLogger } from '../../logger/index.js';
import { croner } from './peer.js';

/** Options of `scheduler()`. */
export interface SchedulerOptions {
  /** The IANA time zone schedules are read in, e.g. `'Europe/Lisbon'`. @default the process's */
  timezone?: string;
  /** Where failed runs and skipped ticks are reported. @default newLogger(NODE_ENV === 'production') */
  logger?: Logger;
}

/** A job with an optional time zone of its own. */
export interface CronJob extends Job {
  /** The IANA time zone of this job's schedule. @default the scheduler's */
  timezone?: string;
}

/** What the scheduler knows of one job. */
export interface JobStatus {
  /** The job's name. */
  readonly name: string;
  /** Its cron expression. */
  readonly schedule: string;
  /** Whether a run is under way. */
  readonly running: boolean;
  /** Runs finished so far, failed ones included. */
  readonly runs: number;
  /** The error of the last run, when it failed. */
  readonly lastError: unknown;
  /** When the next scheduled run is due, once started; null when none is. */
  readonly nextRun: Date | null;
}

interface Entry {
  readonly job: CronJob;
  readonly cron: Cron;
  running: Promise<void> | undefined;
  runs: number;
  failed: boolean;
  lastError: unknown;
}

/**
 * A Scheduler on croner: 5- or 6-field cron expressions in a time zone. A run never overlaps
 * the previous run of the same job; a job that throws is logged with its name and the others go
 * on. Every handler gets one AbortSignal, aborted when `stop()` starts; `stop()` then waits for
 * the running jobs until its own signal aborts.
 * @example
 * const jobs = scheduler({ timezone: 'UTC' });
 * jobs.add({ name: 'purge-sessions', schedule: '0 3 * * *', handler: (signal) => purge(signal) });
 * app.registerScheduler(jobs).registerHealthChecker(jobs.healthChecker());
 */
export class CronScheduler implements Scheduler {
  readonly #entries = new Map<string, Entry>();
  readonly #abort = new AbortController();
  readonly #timezone: string | undefined;
  readonly #logger: Logger;
  #state: 'created' | 'started' | 'stopped' = 'created';

  /** Prefer `scheduler(options)`. */
  constructor({ timezone, logger }: SchedulerOptions = {}) {
    this.#timezone = timezone;
    this.#logger = logger ?? newLogger(process.env.NODE_ENV === 'production');
  }

  /** Adds a job; throws, naming the job, on a bad name, schedule or time zone. */
  add(job: CronJob): this {
    if (this.#state === 'stopped') throw new Error('scheduler: cannot add a job after stop()');
    const { name, schedule, handler } = job ?? {};
    if (typeof name !== 'string' || name === '') {
      throw new TypeError(
        `scheduler: a job's name should be a non-empty string, instead got ${JSON.stringify(name)}`,
      );
    }
    if (this.#entries.has(name))
      throw new Error(`scheduler: a job named "${name}" is already added`);
    if (typeof handler !== 'function') {
      throw new TypeError(
        `scheduler: job "${name}": handler should be a function, instead got ${typeof handler}`,
      );
    }
    const timezone = job.timezone ?? this.#timezone;
    let cron: Cron;
    try {
      cron = new croner.Cron(String(schedule), {
        ...(timezone === undefined ? {} : { timezone }),
        protect: () => this.#logger.debug('job %s still running: tick skipped', name),
      });
      cron.nextRun(); // a bad time zone only shows when a date is computed
    } catch (err) {
      throw new TypeError(
        `scheduler: job "${name}": invalid schedule ${JSON.stringify(schedule)}${timezone ? ` in ${timezone}` : ''}: ${(err as Error).message}`,
      );
    }
    const entry: Entry = {
      job,
      cron,
      running: undefined,
      runs: 0,
      failed: false,
      lastError: undefined,
    };
    this.#entries.set(name, entry);
    if (this.#state === 'started') this.#schedule(entry);
    return this;
  }

  /** Starts running the jobs on their schedules; `listen()` calls it. */
  start(): void {
    if (this.#state !== 'created') return;
    this.#state = 'started';
    for (const entry of this.#entries.values()) this.#schedule(entry);
  }

  /**
   * Stops scheduling, aborts the signal the handlers got, and waits for the running jobs until
   * `signal` aborts; jobs still running then are named in a warning and left behind.
   */
  async stop(signal: AbortSignal): Promise<void> {
    if (this.#state !== 'stopped') {
      this.#state = 'stopped';
      for (const { cron } of this.#entries.values()) cron.stop();
      this.#abort.abort(new Error('the scheduler is stopping: the service is shutting down'));
    }
    const running = [...this.#entries.values()].filter((e) => e.running);
    if (running.length === 0) return;
    const finished = await Promise.race([
      Promise.all(running.map((e) => e.running)).then(() => true),
      aborted(signal).then(() => false),
    ]);
    if (!finished) {
      const names = running.filter((e) => e.running).map((e) => e.job.name);
      this.#logger.warn(
        'jobs still running when the shutdown deadline passed: %s',
        names.join(', '),
      );
    }
  }

  /**
   * Runs a job now, outside its schedule (for tests, or work at boot). Resolves true when the
   * run is over, false when it was skipped because the previous run is still going.
   */
  async runNow(name: string): Promise<boolean> {
    const entry = this.#entries.get(name);
    if (!entry) {
      throw new Error(
        `scheduler: no job named "${name}"; the jobs are: ${[...this.#entries.keys()].join(', ') || 'none'}`,
      );
    }
    if (this.#state === 'stopped') throw new Error(`scheduler: cannot run "${name}" after stop()`);
    return this.#run(entry);
  }

  /** The status of every job, in the order they were added. */
  status(): JobStatus[] {
    return [...this.#entries.values()].map((e) => ({
      name: e.job.name,
      schedule: e.job.schedule,
      running: e.running !== undefined,
      runs: e.runs,
      lastError: e.lastError,
      nextRun: this.#state === 'started' ? e.cron.nextRun() : null,
    }));
  }

  /** A health checker, DOWN while the last run of some job failed. @default name 'scheduler' */
  healthChecker(name = 'scheduler'): HealthChecker {
    const entries = this.#entries;
    return {
      name: () => name,
      check() {
        const failed = [...entries.values()].filter((e) => e.failed);
        if (failed.length > 0) {
          throw new Error(
            failed.map((e) => `job ${e.job.name} failed: ${messageOf(e.lastError)}`).join('; '),
          );
        }
      },
    };
  }

  #schedule(entry: Entry): void {
    entry.cron.schedule(async () => {
      await this.#run(entry);
    });
  }

  async #run(entry: Entry): Promise<boolean> {
    if (entry.running) return false;
    const { name, handler } = entry.job;
    // Marked running before the handler starts: a handler may throw before its first await.
    let finish!: () => void;
    entry.running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    try {
      await handler(this.#abort.signal);
      entry.failed = false;
      entry.lastError = undefined;
    } catch (err) {
      entry.failed = true;
      entry.lastError = err;
      this.#logger.warn('job %s failed: %s', name, describeError(err));
    } finally {
      entry.runs++;
      entry.running = undefined;
      finish();
    }
    return true;
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Creates a cron scheduler; `app.registerScheduler()` it so `listen()` starts it and shutdown stops it.
 * @example app.registerScheduler(scheduler({ timezone: 'Europe/Lisbon' }).add(job));
 */
export function scheduler(options: SchedulerOptions = {}): CronScheduler {
  return new CronScheduler(options);
}
