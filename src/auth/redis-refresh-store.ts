/**
 * A `RefreshStore` in Redis, shared by every replica: a used token id and an ended login are
 * each one key that expires with the tokens it is about (`SET … NX EXAT`), so nothing is swept.
 * @module
 */
import type { RefreshStore } from './refresh.js';

/** What the store needs of a Redis client: ioredis's `call`. */
export interface RefreshRedis {
  /** Sends one command. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** Options of `redisRefreshStore`. */
export interface RedisRefreshStoreOptions {
  /** Prefix of the keys. @default 'keelson:refresh:' */
  prefix?: string;
}

/**
 * Keeps used refresh tokens and ended logins in Redis, for refresh routes on several replicas.
 * A Redis that fails makes `rotate` fail (500): refresh fails closed, unlike a rate limit.
 * @example auth.refreshTokens({ store: redisRefreshStore(new Redis(process.env.REDIS_URL)) })
 */
export function redisRefreshStore(
  redis: RefreshRedis,
  { prefix = 'keelson:refresh:' }: RedisRefreshStoreOptions = {},
): RefreshStore {
  if (!redis || typeof redis.call !== 'function') {
    throw new TypeError('redisRefreshStore takes a Redis client with call() (ioredis)');
  }
  // A key must outlive its moment by a second at least: EXAT in the past is refused.
  const at = (expiresAt: number) =>
    Math.max(Math.ceil(expiresAt), Math.ceil(Date.now() / 1000) + 1);
  return {
    async use(tokenId, expiresAt) {
      const set = await redis.call(
        'SET',
        `${prefix}used:${tokenId}`,
        '1',
        'EXAT',
        at(expiresAt),
        'NX',
      );
      return set === 'OK';
    },
    async revoke(family, expiresAt) {
      await redis.call('SET', `${prefix}ended:${family}`, '1', 'EXAT', at(expiresAt));
    },
    async isRevoked(family) {
      return (await redis.call('EXISTS', `${prefix}ended:${family}`)) === 1;
    },
  };
}
