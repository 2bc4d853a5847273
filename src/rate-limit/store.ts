/**
 * Where rate-limit counters live: @fastify/rate-limit's own stores behind a small promise
 * contract: in memory for one process, Redis to share a limit across replicas.
 * @module
 */
import { createRequire } from 'node:module';

/** A counter's state after one hit. */
export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

/** Where counters live. One method, so a store for another engine is a few lines. */
export interface RateLimitStore {
  /** Counts one hit on `key` in a fixed window of `windowMs`; rejects when the store is unreachable. */
  hit(key: string, windowMs: number, max: number): Promise<RateLimitHit>;
}

type Callback = (err: Error | null, result: { current: number; ttl: number } | null) => void;
interface PluginStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
}

const require = createRequire(import.meta.url);
// The plugin's stores are CommonJS files without types; their contract is `incr` above.
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache: number,
) => PluginStore;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: RedisClient,
  key: string,
) => PluginStore;

function hitOf(store: PluginStore, key: string, windowMs: number, max: number) {
  return new Promise<RateLimitHit>((resolve, reject) => {
    store.incr(
      key,
      (err, result) => {
        if (err || !result) reject(err ?? new Error('the store answered nothing'));
        else resolve({ count: Number(result.current), resetMs: Math.max(0, Number(result.ttl)) });
      },
      windowMs,
      max,
    );
  });
}

/** How many keys the in-memory store keeps (least recently used ones go first). */
export interface MemoryStoreOptions {
  /** @default 10000 */
  maxKeys?: number;
}

/** Counters in this process's memory, an LRU map: the default store of `rateLimit`. */
export function memoryStore({ maxKeys = 10_000 }: MemoryStoreOptions = {}): RateLimitStore {
  if (!Number.isInteger(maxKeys) || maxKeys < 1) {
    throw new TypeError(`memoryStore maxKeys must be an integer >= 1, got ${String(maxKeys)}`);
  }
  const store = new LocalStore(false, false, maxKeys);
  return {
    hit: function memoryHit(key, windowMs, max) {
      return hitOf(store, key, windowMs, max);
    },
  };
}

/** The part of an ioredis client the Redis store uses; an ioredis `Redis` or `Cluster` fits. */
export interface RedisClient {
  /** ioredis's connection state; commands are not sent unless it is `ready`. */
  readonly status?: string;
  /** Defines a Lua command (ioredis `defineCommand`). */
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
}

/** How the Redis store talks to Redis. */
export interface RedisStoreOptions {
  /** Prefix of every key it writes. @default 'keelson:rate-limit:' */
  prefix?: string;
  /** A hit that Redis has not answered in this time fails (and the limit lets it through). @default 200 */
  timeoutMs?: number;
}

/**
 * Counters in Redis (one atomic Lua script per hit), shared by every replica using the same
 * Redis and prefix. `redis` is an ioredis client; keelson does not import ioredis itself.
 * @example rateLimit({ max: 100, windowMs: 60_000, store: redisStore(new Redis(url)) })
 */
export function redisStore(
  redis: RedisClient,
  { prefix = 'keelson:rate-limit:', timeoutMs = 200 }: RedisStoreOptions = {},
): RateLimitStore {
  if (!redis || typeof redis.defineCommand !== 'function') {
    throw new TypeError('redisStore takes an ioredis client (npm install ioredis)');
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new TypeError(`redisStore timeoutMs must be an integer >= 1, got ${String(timeoutMs)}`);
  }
  const store = new RedisStore(false, false, redis, prefix);
  return {
    hit: function redisHit(key, windowMs, max) {
      // While ioredis reconnects it would queue the command; fail now instead.
      if (redis.status !== undefined && redis.status !== 'ready') {
        return Promise.reject(new Error(`redis is not ready (${redis.status})`));
      }
      return withTimeout(hitOf(store, key, windowMs, max), timeoutMs);
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
