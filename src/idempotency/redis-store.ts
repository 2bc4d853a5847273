/**
 * Idempotency records in Redis, shared by every replica using the same Redis and prefix: one
 * atomic Lua script per step, through an ioredis client you pass (keelson does not import it).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from './store.js';

/** The part of an ioredis client the store uses; an ioredis `Redis` or `Cluster` fits. */
export interface IdempotencyRedisClient {
  /** ioredis's connection state; commands are not sent unless it is `ready`. */
  readonly status?: string;
  /** Runs a Lua script (ioredis `eval`). */
  eval(script: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/** How the Redis store names its keys. */
export interface RedisIdempotencyStoreOptions {
  /** Prefix of every key it writes. @default 'keelson:idempotency:' */
  prefix?: string;
}

// The record while its request runs, and once it has answered.
interface Running {
  readonly fingerprint: string;
  readonly token: string;
}
interface Done {
  readonly fingerprint: string;
  readonly answer: StoredAnswer;
}

/** Sets the running record unless one exists; returns the existing one. */
const CLAIM = `local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

/** Replaces the running record with `ARGV[2]` (or deletes it, without one) if it is still `ARGV[1]`. */
const SETTLE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) else redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * Idempotency records in Redis. `redis` is an ioredis client; close it yourself at shutdown.
 * @example idempotency({ store: redisIdempotencyStore(new Redis(process.env.REDIS_URL)) })
 */
export function redisIdempotencyStore(
  redis: IdempotencyRedisClient,
  { prefix = 'keelson:idempotency:' }: RedisIdempotencyStoreOptions = {},
): IdempotencyStore {
  if (!redis || typeof redis.eval !== 'function') {
    throw new TypeError('redisIdempotencyStore takes an ioredis client (npm install ioredis)');
  }
  const run = (script: string, key: string, ...args: (string | number)[]) => {
    // While ioredis reconnects it would queue the command; fail now instead.
    if (redis.status !== undefined && redis.status !== 'ready') {
      return Promise.reject(new Error(`redis is not ready (${redis.status})`));
    }
    return redis.eval(script, 1, prefix + key, ...args);
  };
  return {
    async claim(key, fingerprint, lockMs): Promise<IdempotencyClaim> {
      // The token is the running record's text, so settling it checks the same request holds it.
      const token = JSON.stringify({ fingerprint, token: randomUUID() } satisfies Running);
      const found = await run(CLAIM, key, token, lockMs);
      if (typeof found !== 'string') return { state: 'claimed', token };
      const record = JSON.parse(found) as Partial<Running & Done>;
      if (record.answer) {
        return { state: 'done', fingerprint: String(record.fingerprint), answer: record.answer };
      }
      return { state: 'running', fingerprint: record.fingerprint };
    },
    async complete(key, token, answer, ttlMs) {
      const { fingerprint } = JSON.parse(token) as Running;
      await run(SETTLE, key, token, JSON.stringify({ fingerprint, answer } satisfies Done), ttlMs);
    },
    async release(key, token) {
      await run(SETTLE, key, token);
    },
  };
}
