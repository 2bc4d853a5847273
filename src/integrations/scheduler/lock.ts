import type { Redis } from 'ioredis';

/**
 * Decides which replica runs a tick: each tick of a job (its name and scheduled time) is
 * claimed once across every replica sharing the lock.
 */
export interface JobLock {
  /**
   * Claims the tick of `job` scheduled at `scheduledAt` for `ttlMs`: resolves true for the one
   * replica that got it, false for the others; rejects when the claim cannot be made (the
   * scheduler then skips the tick).
   */
  acquire(job: string, scheduledAt: Date, ttlMs: number): Promise<boolean>;
}

/** Options of `redisLock()`. */
export interface RedisLockOptions {
  /** Prepended to every key, e.g. the service name. @default 'keelson:job:' */
  prefix?: string;
}

/**
 * A JobLock on Redis (ioredis): `SET <prefix><job>:<scheduledAt ISO> <replica> NX PX <ttlMs>`,
 * so the first replica to claim a tick runs it. The key names the tick rather than the job, so
 * a replica that died while running a tick never holds back the next one.
 * @example scheduler({ lock: redisLock(new Redis(process.env.REDIS_URL), { prefix: 'users-api:' }) })
 */
export function redisLock(
  redis: Pick<Redis, 'set'>,
  { prefix = 'keelson:job:' }: RedisLockOptions = {},
): JobLock {
  const owner = `${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  return {
    async acquire(job, scheduledAt, ttlMs) {
      const key = `${prefix}${job}:${scheduledAt.toISOString()}`;
      const ttl = Math.max(1, Math.ceil(ttlMs));
      return (await redis.set(key, owner, 'PX', ttl, 'NX')) === 'OK';
    },
  };
}

/**
 * Claims a tick through `lock`, waiting at most `timeoutMs`: a lock that does not answer in
 * time (Redis unreachable, its client queueing commands) rejects like one that fails.
 */
export async function claimTick(
  lock: JobLock,
  job: string,
  scheduledAt: Date,
  ttlMs: number,
  timeoutMs: number,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([lock.acquire(job, scheduledAt, ttlMs), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
