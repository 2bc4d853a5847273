/**
 * keelson/scheduler: a Scheduler on croner (an optional peer dependency: install `croner` to
 * use this entry).
 * @module
 */

export {
  type CronJob,
  CronScheduler,
  type JobStatus,
  type SchedulerOptions,
  scheduler,
} from './scheduler.js';
