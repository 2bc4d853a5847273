/**
 * Keelson: a TypeScript framework for HTTP services on Fastify 5. The root entry holds what a
 * service author writes every day; the types and helpers for extension authors (guards,
 * integrations, middleware with docs) are in `keelson/extend`.
 * @module
 */

// ── The application ──────────────────────────────────────────────────────────
export type { AppOptions, Module } from './app.js';
// ── Configuration ────────────────────────────────────────────────────────────
export { ConfigError, type Env, type KConfig, loadConfig } from './config/index.js';
// ── Health ───────────────────────────────────────────────────────────────────
export type { HealthChecker } from './contracts.js';
// ── Errors ───────────────────────────────────────────────────────────────────
export {
  badRequest,
  conflict,
  forbidden,
  internal,
  isKError,
  KError,
  notFound,
  type ProblemDetails,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
  unprocessable,
} from './errors/index.js';
export { App } from './features.js';
// ── Idempotency keys ─────────────────────────────────────────────────────────
export {
  IDEMPOTENCY_TABLE_SQL,
  idempotency,
  memoryIdempotencyStore,
  redisIdempotencyStore,
} from './idempotency/index.js';
// ── Rate limits ──────────────────────────────────────────────────────────────
export { memoryStore, rateLimit, redisStore } from './rate-limit/index.js';
// ── Routing ──────────────────────────────────────────────────────────────────
export { del, get, head, options, patch, post, put, route } from './routing/builders.js';
export { Context } from './routing/context.js';
export { Group, type GroupOptions } from './routing/group.js';
export { guarded } from './routing/guarded.js';
export { type Page, paginate, paginated } from './routing/paginated.js';
export { pagination } from './routing/pagination.js';
export type {
  Controller,
  Deprecation,
  DeprecationDetails,
  Infer,
  Middleware,
  Schema,
} from './routing/types.js';
// ── Server-sent events ───────────────────────────────────────────────────────
export { eventStream, type ServerSentEvent } from './sse/index.js';
// ── Uploads ──────────────────────────────────────────────────────────────────
export { file, multipart } from './uploads/index.js';
// ── The package ──────────────────────────────────────────────────────────────
export { VERSION } from './version.js';
// ── WebSockets ───────────────────────────────────────────────────────────────
export { type WebSocketContext, ws } from './websocket/index.js';
