/**
 * Idempotency keys: `idempotency({ store })` middleware and its stores (a keelson/db database,
 * Redis, memory).
 * @module
 */

export {
  databaseIdempotencyStore,
  IDEMPOTENCY_TABLE,
  IDEMPOTENCY_TABLE_SQL,
  type IdempotencyDatabase,
} from './database-store.js';
export {
  IDEMPOTENCY_KEY_HEADER,
  type IdempotencyOptions,
  type IdempotencyStoreOption,
  idempotency,
} from './middleware.js';
export {
  type IdempotencyRedisClient,
  type RedisIdempotencyStoreOptions,
  redisIdempotencyStore,
} from './redis-store.js';
export {
  type IdempotencyClaim,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
  memoryIdempotencyStore,
  type StoredAnswer,
  type StoredBody,
} from './store.js';
