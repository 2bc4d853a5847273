/**
 * keelson/queue: background jobs on BullMQ (an optional peer dependency: install `bullmq` to
 * use this entry), with payloads checked by a schema, metrics, health and graceful shutdown.
 * @module
 */

export { PayloadError } from './payload.js';
export { JobQueue, queue } from './queue.js';
export type {
  AddOptions,
  JobHandler,
  ProcessOptions,
  QueuedJob,
  QueueOptions,
  RepeatRule,
} from './types.js';
