import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Job, Queue, Worker } from 'bullmq';
import type { App, Module } from '../../app.js';
import type { HealthChecker, JobMetric } from '../../contracts.js';
import { describeError } from '../../errors/describe.js';
import { raceAbort } from '../../lifecycle/race.js';
import type { Logger } from '../../logger/index.js';
import { stdoutLogger } from '../../logger/logger.js';
import { validatePayload } from './payload.js';
import { bullmq } from './peer.js';
import type { AddOptions, JobHandler, ProcessOptions, QueueOptions, RepeatRule } from './types.js';

/** How long cut-off jobs get to settle before the workers' connections are closed. */
const SETTLE_MS = 500;

type Output<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;

/**
 * A queue of background jobs on BullMQ with a typed, validated payload. Used as a module
 * (`app.use(q)`), it adds a report-only health checker (Redis reachable), reports each finished
 * try to the app's metrics collector (`recordJob`), and closes at shutdown: workers stop taking
 * jobs and the running ones finish within the shared deadline, after which their signals abort
 * and they go back to the queue, whatever their handlers then do, for another worker to run.
 * @example
 * const emails = queue('emails', { connection: { host: 'redis' }, payload: z.object({ to: z.email() }) });
 * emails.process(async ({ to }) => send(to), { concurrency: 5 });
 * app.use(emails);
 * await emails.add({ to: 'ada@example.com' }, { attempts: 3, jobId: `welcome:${user.id}` });
 */
export class JobQueue<S extends StandardSchemaV1> implements Module {
  /** The queue's name. */
  readonly name: string;
  /** The BullMQ queue underneath, for what this wrapper does not cover. */
  readonly queue: Queue;
  readonly #options: QueueOptions<S>;
  readonly #workers: Worker<Output<S>>[] = [];
  /** The jobs running in this process, with the lock token each was taken with. */
  readonly #active = new Map<Job<Output<S>>, string>();
  #cutOff = false;
  readonly #idle: Array<() => void> = [];
  #logger: Logger | undefined;
  #app: App | undefined;
  #closing: Promise<void> | undefined;

  /** Prefer `queue(name, options)`. */
  constructor(name: string, options: QueueOptions<S>) {
    if (typeof name !== 'string' || name === '') {
      throw new TypeError(
        `queue: name should be a non-empty string, instead got ${JSON.stringify(name)}`,
      );
    }
    if (typeof options?.payload?.['~standard']?.validate !== 'function') {
      throw new TypeError(`queue "${name}": payload should be a Standard Schema (zod, valibot, …)`);
    }
    this.name = name;
    this.#options = options;
    this.#logger = options.logger;
    this.queue = new bullmq.Queue(name, this.#bullOptions());
    this.queue.on('error', (err) => this.#log.warn('queue %s: %s', name, describeError(err)));
  }

  /**
   * Validates `data` against the payload schema and enqueues it; resolves the job's id. Throws a
   * PayloadError naming each bad field, and enqueues nothing, when it does not pass.
   */
  async add(data: StandardSchemaV1.InferInput<S>, options: AddOptions = {}): Promise<string> {
    const payload = await validatePayload(this.name, this.#options.payload, data);
    const { jobId, delayMs, attempts, backoff, name = this.name } = options;
    const job = await this.queue.add(name, payload, {
      ...(jobId === undefined ? {} : { jobId }),
      ...(delayMs === undefined ? {} : { delay: delayMs }),
      ...(attempts === undefined ? {} : { attempts }),
      backoff: backoff
        ? { type: backoff.type, delay: backoff.delayMs }
        : { type: 'exponential', delay: 1000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    return job.id!;
  }

  /** Adds (or replaces) a repeatable job through BullMQ's job schedulers; `id` names the schedule. */
  async schedule(
    id: string,
    rule: RepeatRule,
    data: StandardSchemaV1.InferInput<S>,
  ): Promise<void> {
    const payload = await validatePayload(this.name, this.#options.payload, data);
    const repeat =
      'everyMs' in rule
        ? { every: rule.everyMs }
        : { pattern: rule.pattern, ...(rule.tz ? { tz: rule.tz } : {}) };
    await this.queue.upsertJobScheduler(id, repeat, { name: id, data: payload });
  }

  /** Removes a repeatable job added by `schedule()`. */
  async unschedule(id: string): Promise<void> {
    await this.queue.removeJobScheduler(id);
  }

  /** Starts a worker in this process that runs `handler` for each job, `concurrency` at once. */
  process(handler: JobHandler<Output<S>>, { concurrency = 1 }: ProcessOptions = {}): this {
    if (typeof handler !== 'function') {
      throw new TypeError(
        `queue "${this.name}": handler should be a function, instead got ${typeof handler}`,
      );
    }
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(
        `queue "${this.name}": concurrency should be a positive integer, instead got ${concurrency}`,
      );
    }
    const worker = new bullmq.Worker<Output<S>>(
      this.name,
      // Three parameters: BullMQ passes the abort signal only to a processor that declares it.
      (job: Job<Output<S>>, token?: string, signal?: AbortSignal) =>
        this.#runJob(handler, job, token, signal),
      { ...this.#bullOptions(), concurrency },
    );
    worker.on('completed', (job) => this.#record(job, 'completed'));
    worker.on('failed', (job, err) => {
      if (job) this.#record(job, 'failed');
      this.#log.warn('queue %s: job %s failed: %s', this.name, job?.id ?? '?', describeError(err));
    });
    worker.on('error', (err) =>
      this.#log.warn('queue %s: worker: %s', this.name, describeError(err)),
    );
    this.#workers.push(worker);
    return this;
  }

  /**
   * A health checker: UP while the queue's Redis connection is up and answers. Report-only by
   * default (`affects: 'none'`): a Redis every replica shares must not take them all out of the
   * load balancer at once; pass `{ affects: 'readiness' }` to fail readiness on it.
   * @default name `queue:<name>`
   */
  healthChecker(
    name = `queue:${this.name}`,
    { affects = 'none' }: Pick<HealthChecker, 'affects'> = {},
  ): HealthChecker {
    const queue = this.queue;
    return {
      name: () => name,
      affects,
      async check() {
        const client = await queue.backend.client;
        // A client that is reconnecting would queue the command until the checker times out.
        if (client.status !== 'ready') throw new Error(`Redis connection is ${client.status}`);
        await queue.count();
      },
    };
  }

  /** Adds the health checker and the shutdown hook, and takes the app's logger and metrics. */
  register(app: App): void {
    this.#app = app;
    this.#logger ??= app.logger;
    const close = (signal: AbortSignal) => this.close(signal);
    app.registerHealthChecker(this.healthChecker());
    app.onShutdown(function closeQueue(signal) {
      return close(signal);
    });
  }

  /**
   * Closes the workers, letting their running jobs finish until `signal` aborts, then aborts
   * the rest (their handlers' signals) and puts them back in the queue (their attempts are not
   * counted); then closes the queue's connection.
   * Later calls return the first call's promise.
   */
  close(signal: AbortSignal = new AbortController().signal): Promise<void> {
    this.#closing ??= this.#close(signal);
    return this.#closing;
  }

  async #close(signal: AbortSignal): Promise<void> {
    // pause() stops taking jobs and waits for the active ones; close(force) can only be chosen
    // by the first close() call, so it comes after.
    const idle = Promise.all(this.#workers.map((w) => w.pause()));
    const done = await raceAbort(idle, signal);
    if (!done) {
      this.#log.warn(
        'queue %s: jobs still running at the shutdown deadline: given up and put back in the queue',
        this.name,
      );
      this.#cutOff = true;
      for (const w of this.#workers) w.cancelAllJobs('the shutdown deadline passed');
      await this.#requeue();
      // Let the handlers that heed their signal settle, so BullMQ finishes with their jobs while
      // its connection is still open (a forced close rejects its commands in flight).
      await raceAbort(this.#settled(), AbortSignal.timeout(SETTLE_MS));
    }
    await Promise.all(this.#workers.map((w) => w.close(!done)));
    await this.queue.close();
  }

  async #runJob(
    handler: JobHandler<Output<S>>,
    job: Job<Output<S>>,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    this.#active.set(job, token ?? '');
    try {
      await handler(job.data, {
        id: job.id ?? '',
        name: job.name,
        attempt: job.attemptsMade + 1,
        signal: signal ?? new AbortController().signal,
      });
    } catch (err) {
      if (!this.#cutOff) throw err;
    } finally {
      this.#active.delete(job);
      if (this.#active.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
    // Cut off by shutdown, whether it then threw or returned: #requeue() has put it back, and a
    // WaitingError tells BullMQ to neither fail nor complete it.
    if (this.#cutOff) throw new bullmq.WaitingError();
  }

  /** Resolves once no job of this process runs. */
  #settled(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Moves the jobs cut off by shutdown from active back to waiting, for another worker. */
  async #requeue(): Promise<void> {
    const moves = [...this.#active].map(async ([job, token]) => {
      try {
        await job.moveToWait(token);
      } catch (err) {
        this.#log.warn('queue %s: job %s not put back: %s', this.name, job.id, describeError(err));
      }
    });
    await Promise.all(moves);
  }

  get #log(): Logger {
    this.#logger ??= stdoutLogger();
    return this.#logger;
  }

  #bullOptions() {
    const { connection, prefix } = this.#options;
    return { connection, ...(prefix === undefined ? {} : { prefix }) };
  }

  #record(job: Job, status: JobMetric['status']): void {
    const metrics = this.#app?.metrics;
    if (!metrics?.recordJob) return;
    const started = job.processedOn ?? job.timestamp;
    const durationMs = Math.max(0, (job.finishedOn ?? Date.now()) - started);
    try {
      metrics.recordJob({ queue: this.name, job: job.name, status, durationMs });
    } catch (err) {
      this.#log.warn('metrics collector failed: %s', describeError(err));
    }
  }
}

/**
 * Creates a queue of background jobs on BullMQ; `app.use()` it.
 * @example const emails = queue('emails', { connection: { host: 'localhost' }, payload: Email });
 */
export function queue<S extends StandardSchemaV1>(
  name: string,
  options: QueueOptions<S>,
): JobQueue<S> {
  return new JobQueue(name, options);
}
