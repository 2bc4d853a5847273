/**
 * keelson/scheduler: a Scheduler on croner (an optional peer dependency: install `croner` to
 * use this entry), with a lock that runs each tick on one replica (`redisLock`, on ioredis).
 * @module
 */

export type { JobStatus } from '../../contracts.js';
export type { JobHealthOptions } from './job-health.js';
export { type JobLock, type RedisLockOptions, redisLock } from './lock.js';
export { CronScheduler, scheduler } from './scheduler.js';
export type { CronJob, SchedulerOptions } from './types.js';
