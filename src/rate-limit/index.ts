/**
 * `rateLimit(...)`: a fixed-window rate limit as Keelson middleware, so it runs on the app, a
 * group or one route like any middleware, after the middleware outside it (an auth guard
 * outside it can key the limit by user). Counters live in a store: @fastify/rate-limit's
 * in-memory LRU by default, `redisStore` to share them across replicas.
 * @module
 */
import { describeError } from '../errors/describe.js';
import { internal, keelsonError } from '../errors/index.js';
import type { Context } from '../routing/context.js';
import type { UserMiddleware } from '../routing/guarded.js';
import { describeMiddleware } from '../routing/middleware-docs.js';
import type { Next, RawHeaders, RawQuery, Responses } from '../routing/types.js';
import { memoryStore, type RateLimitStore } from './store.js';

export {
  type MemoryStoreOptions,
  memoryStore,
  type RateLimitHit,
  type RateLimitStore,
  type RedisClient,
  type RedisStoreOptions,
  redisStore,
} from './store.js';

/** The context `key` reads: `c.user` is the `U` of the guard around the limit. */
export type RateLimitContext<U> = Context<
  Record<string, string>,
  RawQuery,
  RawHeaders,
  unknown,
  Responses,
  U
>;

/** What `rateLimit` limits, and how; `U` is the type of `c.user` that `key` reads. */
export interface RateLimitOptions<U = unknown> {
  /** Requests allowed per key in one window. */
  max: number;
  /** The window, in milliseconds. */
  windowMs: number;
  /** What is limited: one counter per returned key. @default the client's IP (`c.request.ip`) */
  key?: (c: RateLimitContext<U>) => string;
  /** Where counters live. @default memoryStore(), one per rateLimit() call */
  store?: RateLimitStore;
  /**
   * Names this limit's counters in the store, so two limits with the same `max` and `windowMs`
   * sharing a store count apart. @default `${max}/${windowMs}`
   */
  name?: string;
}

/** Warnings about an unreachable store, at most one per this many ms per limit. */
const WARN_EVERY_MS = 10_000;

const EVERY_ANSWER_DOCS = {
  'RateLimit-Limit': {
    description: 'Requests allowed per window.',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer' },
  },
};

const HEADER_DOCS = {
  'Retry-After': {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer' },
  },
  ...EVERY_ANSWER_DOCS,
};

function clientIp(c: Context): string {
  return c.request.ip;
}

/**
 * A rate-limit middleware. Every answer it covers carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset`; over the limit it answers 429 problem+json with
 * `Retry-After`. When the store fails or does not answer in time, the request goes through
 * (fail-open) and a warning is logged; when `key` throws, the answer is a 500 (never fail-open).
 * Under `guarded(guard).with(rateLimit({ key: (c) => c.user.sub }))` the key sees the guard's
 * user type; elsewhere name it: `rateLimit<UserOf<typeof auth>>({ … })`.
 * @example app.group('/api', rateLimit({ max: 100, windowMs: 60_000 }))
 */
export function rateLimit<U = unknown>({
  max,
  windowMs,
  key = clientIp,
  store = memoryStore(),
  name = `${max}/${windowMs}`,
}: RateLimitOptions<U>): UserMiddleware<U> {
  if (!Number.isInteger(max) || max < 1) {
    throw new TypeError(`rateLimit max must be an integer >= 1, got ${String(max)}`);
  }
  if (!Number.isInteger(windowMs) || windowMs < 1) {
    throw new TypeError(`rateLimit windowMs must be an integer >= 1, got ${String(windowMs)}`);
  }
  if (typeof key !== 'function') throw new TypeError('rateLimit key must be a function');
  if (!store || typeof store.hit !== 'function') {
    throw new TypeError('rateLimit store must have a hit(key, windowMs, max) method');
  }
  const limit = String(max);
  const prefix = `${name}:`;
  let warnedAt = -Infinity;

  const middleware = async function rateLimit(c: Context, next: Next): Promise<unknown> {
    // Outside the fail-open below: a `key` that throws is the app's bug, never a store outage,
    // and letting the request through would switch the limit off for whoever triggers it.
    let counter: string;
    try {
      // The guard outside the limit set c.user: the type says what it set.
      counter = prefix + key(c as RateLimitContext<U>);
    } catch (err) {
      throw internal(undefined, new Error(`rate limit ${name}: key() threw`, { cause: err }));
    }
    let hit: Awaited<ReturnType<RateLimitStore['hit']>>;
    try {
      hit = await store.hit(counter, windowMs, max);
    } catch (err) {
      // Fail-open: a limit protects capacity; an outage of its store must not become one of the API.
      const now = Date.now();
      if (now - warnedAt >= WARN_EVERY_MS) {
        warnedAt = now;
        c.log.warn(
          'rate limit %s: store failed, letting requests through: %s',
          name,
          describeError(err),
        );
      }
      return next();
    }
    const reset = String(Math.ceil(hit.resetMs / 1000));
    const remaining = String(Math.max(0, max - hit.count));
    if (hit.count > max) {
      throw keelsonError(
        'TOO_MANY_REQUESTS',
        `Too many requests: at most ${max} per ${windowMs} ms. Retry in ${reset} s.`,
        {
          headers: {
            'retry-after': reset,
            'ratelimit-limit': limit,
            'ratelimit-remaining': remaining,
            'ratelimit-reset': reset,
          },
        },
      );
    }
    c.reply.header('ratelimit-limit', limit);
    c.reply.header('ratelimit-remaining', remaining);
    c.reply.header('ratelimit-reset', reset);
    return next();
  };
  return describeMiddleware(middleware, {
    responses: {
      429: { description: 'Too many requests', headers: HEADER_DOCS, codes: ['TOO_MANY_REQUESTS'] },
    },
    headers: EVERY_ANSWER_DOCS,
  });
}
