import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ConnectionOptions } from 'bullmq';
import type { Logger } from '../../logger/index.js';

/** Options of `queue()`. */
export interface QueueOptions<S extends StandardSchemaV1> {
  /** The Redis connection: ioredis options (`{ host, port }`) or an ioredis client. */
  connection: ConnectionOptions;
  /** The schema every payload must pass, e.g. a zod object; checked by `add()`. */
  payload: S;
  /** BullMQ's key prefix in Redis. @default 'bull' */
  prefix?: string;
  /** Where failed jobs and worker errors are logged. @default the app's logger (app.use), else a text logger */
  logger?: Logger;
}

/** Options of one `add()`. */
export interface AddOptions {
  /** The job's id (no `:`): a second add with the same id is ignored while the first is kept (deduplication). */
  jobId?: string;
  /** Wait this long before the job may run. @default 0 */
  delayMs?: number;
  /** Tries in all, the first included. @default 1 */
  attempts?: number;
  /** The wait between tries: fixed, or doubling from `delayMs`. @default { type: 'exponential', delayMs: 1000 } */
  backoff?: { type: 'fixed' | 'exponential'; delayMs: number };
  /** The job's name, for logs and metrics. @default the queue's name */
  name?: string;
}

/** Options of `process()`. */
export interface ProcessOptions {
  /** Jobs run at once by this process. @default 1 */
  concurrency?: number;
}

/** What a handler is told of its job. */
export interface QueuedJob {
  /** The job's id. */
  readonly id: string;
  /** The job's name. */
  readonly name: string;
  /** Which try this is, from 1. */
  readonly attempt: number;
  /** Aborts when the worker gives up the job (forced close at the shutdown deadline). */
  readonly signal: AbortSignal;
}

/** Handles one job; a throw (or rejection) fails the try, to be retried while attempts remain. */
export type JobHandler<T> = (data: T, job: QueuedJob) => Promise<unknown> | unknown;

/** A repeat rule for `schedule()`: a cron pattern or a fixed interval. */
export type RepeatRule = { pattern: string; tz?: string } | { everyMs: number };
