/**
 * keelson/scheduler: a Scheduler on croner (an optional peer dependency: install `croner` to
 * use this entry), with a lock that runs each tick on one replica (`redisLock`, on ioredis).
 * @module
 */

export type { JobHealthOptions } from './job-health.js';
export { type JobLock, type RedisLockOptions, redisLock } from './lock.js';
export { CronScheduler, scheduler } from './scheduler.js';
export type { CronJob, JobStatus, SchedulerOptions } from './types.js';
