/**
 * keelson/auth: guards that verify credentials, set a typed `c.user`, answer 401/403 as
 * problem+json and declare their security scheme to the OpenAPI document. `jwt()` runs on jose
 * (an optional peer dependency: `npm install jose`).
 * @module
 */

// ── Guards ───────────────────────────────────────────────────────────────────
export { authorize } from './authorize.js';
export { type ApiKeyOptions, apiKey, type BearerOptions, bearer, type Verify } from './bearer.js';
export type { GuardOptions } from './docs.js';
export {
  type JwtGuard,
  type JwtKey,
  type JwtOptions,
  type JwtUser,
  jwt,
} from './jwt.js';
export {
  type RedisRefreshStoreOptions,
  type RefreshRedis,
  redisRefreshStore,
} from './redis-refresh-store.js';
// ── Issuing tokens (the guard's sign() and refreshTokens()) ──────────────────
export {
  memoryRefreshStore,
  type RefreshOptions,
  type RefreshStore,
  type RefreshTokens,
  type TokenPair,
} from './refresh.js';
export type { Lifetime, SignClaims, SignOptions } from './sign.js';
