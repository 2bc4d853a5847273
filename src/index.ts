/**
 * Keelson: a TypeScript framework for HTTP services on Fastify 5.
 * @module
 */

// ── The application ──────────────────────────────────────────────────────────
export { App, type AppOptions, type Module } from './app.js';
// ── HTTP features ────────────────────────────────────────────────────────────
export type { CompressOptions } from './compress/index.js';
// ── Configuration ────────────────────────────────────────────────────────────
export {
  ConfigError,
  type ConfigIssue,
  DEFAULTS,
  type DocsConfig,
  type DocsContact,
  type DocsLicense,
  type DocsSecurityScheme,
  type DocsTag,
  type Env,
  type HealthConfig,
  type KConfig,
  type LoadConfigOptions,
  loadConfig,
  type ResolvedConfig,
  type ResolvedDocsConfig,
  type ResolvedDocsServer,
  resolveConfig,
} from './config/index.js';
// ── Integration contracts ────────────────────────────────────────────────────
export {
  type AttributeValue,
  type HealthChecker,
  type Job,
  type JobMetric,
  type JobStatus,
  type JobTick,
  type MetricsCollector,
  NOOP_SPAN,
  noopTracer,
  type RequestMetric,
  type Scheduler,
  type SchedulerStart,
  type ShutdownHook,
  type Span,
  type SpanStartOptions,
  type Tracer,
  type Translator,
} from './contracts.js';
export type { CookieOptions, CookiesOptions } from './cookies/index.js';
// ── Dev panel ────────────────────────────────────────────────────────────────
export type { DevPanelOptions } from './devpanel/index.js';
// ── Docs ─────────────────────────────────────────────────────────────────────
export type { OpenApiDocument } from './docs/openapi.js';
export type { TrustProxy } from './engine/engine.js';
export type { RequestIdOptions } from './engine/request-id.js';
// ── Errors ───────────────────────────────────────────────────────────────────
export {
  badRequest,
  conflict,
  type ErrorContext,
  type ErrorsOptions,
  forbidden,
  internal,
  isKError,
  KError,
  type KErrorOptions,
  notFound,
  PROBLEM_CONTENT_TYPE,
  type ProblemDetails,
  serviceUnavailable,
  statusTitle,
  tooManyRequests,
  toProblem,
  unauthorized,
  unprocessable,
  type ValidationIssue,
} from './errors/index.js';
// ── Health ───────────────────────────────────────────────────────────────────
export type { HealthReport, HealthStatus } from './health/index.js';
// ── Idempotency keys ─────────────────────────────────────────────────────────
export {
  IDEMPOTENCY_TABLE_SQL,
  type IdempotencyOptions,
  type IdempotencyStore,
  idempotency,
  memoryIdempotencyStore,
  redisIdempotencyStore,
  type StoredAnswer,
} from './idempotency/index.js';
export {
  type MemoryStoreOptions,
  memoryStore,
  type RateLimitHit,
  type RateLimitOptions,
  type RateLimitStore,
  type RedisClient,
  type RedisStoreOptions,
  rateLimit,
  redisStore,
} from './rate-limit/index.js';
export { negotiateLanguage } from './request/accept-language.js';
// ── Routing ──────────────────────────────────────────────────────────────────
export {
  del,
  get,
  head,
  options,
  patch,
  post,
  put,
  type RouteBuilder,
  route,
} from './routing/builders.js';
export { Context } from './routing/context.js';
export { Group } from './routing/group.js';
export { type Guard, type GuardedRoutes, guarded, type UserOf } from './routing/guarded.js';
export {
  type DocumentedHeader,
  type DocumentedRequestHeader,
  type DocumentedResponse,
  describeMiddleware,
  type MiddlewareDocs,
  middlewareDocsOf,
} from './routing/middleware-docs.js';
export {
  type CursorPage,
  type OffsetPage,
  type Page,
  paginate,
  paginated,
} from './routing/paginated.js';
export {
  type CursorQuery,
  type OffsetQuery,
  type PageQuery,
  type PageQueryInput,
  type PaginationOptions,
  type PagingMode,
  pagination,
  type QuerySchema,
} from './routing/pagination.js';
export type { RouteEntry } from './routing/table.js';
export type {
  BodyFor,
  Controller,
  DefaultBody,
  Handler,
  HandlerResult,
  HttpMethod,
  Infer,
  Loose,
  Middleware,
  Next,
  PathParams,
  RawHeaders,
  RawQuery,
  Responses,
  RouteDef,
  RouteOptions,
  Schema,
  SecurityRequirement,
  Sent,
  TypedRouteDef,
} from './routing/types.js';
// ── Server-sent events ───────────────────────────────────────────────────────
export {
  EVENT_STREAM_TYPE,
  eventStream,
  type ServerSentEvent,
  type SseOptions,
} from './sse/index.js';
export type { StaticOptions } from './static/index.js';
// ── Uploads ──────────────────────────────────────────────────────────────────
export {
  type CollectedForm,
  type FileField,
  type FileOptions,
  file,
  MULTIPART_TYPE,
  type MultipartOutput,
  type MultipartSchema,
  type MultipartShape,
  multipart,
} from './uploads/index.js';
export { VERSION } from './version.js';
// ── WebSockets ───────────────────────────────────────────────────────────────
export {
  type WebSocketConnection,
  type WebSocketContext,
  type WebSocketOptions,
  ws,
} from './websocket/index.js';
