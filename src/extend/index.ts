/**
 * `keelson/extend`: the types and helpers for extension authors (guards, middleware that
 * documents itself, integrations implementing the contracts) and the option types of each
 * feature. A service author needs only `keelson`; see CONTRIBUTING.md for the rule.
 * @module
 */

export type { CompressOptions } from '../compress/index.js';
// Configuration: the resolved config and its parts
export {
  type ConfigIssue,
  DEFAULTS,
  type DocsConfig,
  type DocsContact,
  type DocsLicense,
  type DocsSecurityScheme,
  type DocsTag,
  type HealthConfig,
  type LoadConfigOptions,
  type ResolvedConfig,
  type ResolvedDocsConfig,
  type ResolvedDocsServer,
  resolveConfig,
} from '../config/index.js';
// Integration contracts: what a tracer, a metrics collector, a scheduler, a translator implement
export {
  type AttributeValue,
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
} from '../contracts.js';
export type { CookieOptions, CookiesOptions } from '../cookies/index.js';
export type { DevPanelOptions } from '../devpanel/index.js';
export type { OpenApiDocument } from '../docs/openapi.js';
// Engines: `app.engine` says which runs the app and hands out its own object.
export type { BunServer } from '../engine/bun/bun-types.js';
export type { EngineInfo } from '../engine/contract.js';
export type { TrustProxy } from '../engine/engine.js';
export type { RequestIdOptions } from '../engine/request-id.js';
// Errors: options of the error answers and problem helpers
export {
  type CatalogueEntry,
  ERROR_CATALOGUE,
  type ErrorContext,
  type ErrorsOptions,
  isKeelsonErrorCode,
  type KErrorOptions,
  type KeelsonErrorCode,
  PROBLEM_CHANNEL,
  PROBLEM_CONTENT_TYPE,
  statusTitle,
  toProblem,
  type ValidationIssue,
} from '../errors/index.js';
export type { HealthReport, HealthStatus } from '../health/index.js';
export type { IdempotencyOptions, IdempotencyStore, StoredAnswer } from '../idempotency/index.js';
export type {
  MemoryStoreOptions,
  RateLimitContext,
  RateLimitHit,
  RateLimitOptions,
  RateLimitStore,
  RedisClient,
  RedisStoreOptions,
} from '../rate-limit/index.js';
export { negotiateLanguage } from '../request/accept-language.js';
// Bodies a route reads itself (the extension point of uploads)
export { BODY_READER, type BodyReader } from '../routing/body-reader.js';
export type { RouteBuilder } from '../routing/builders.js';
// Guards
export type { Guard, GuardedRoutes, UserMiddleware, UserOf } from '../routing/guarded.js';
// Middleware that documents itself
export {
  type DocumentedHeader,
  type DocumentedRequestHeader,
  type DocumentedResponse,
  describeMiddleware,
  type MiddlewareDocs,
  middlewareDocsOf,
} from '../routing/middleware-docs.js';
export type { CursorPage, OffsetPage } from '../routing/paginated.js';
export type {
  CursorQuery,
  OffsetQuery,
  PageQuery,
  PageQueryInput,
  PaginationOptions,
  PagingMode,
  QuerySchema,
} from '../routing/pagination.js';
export type { RouteEntry } from '../routing/table.js';
// Routes: the types behind the builders
export type {
  BodyFor,
  DefaultBody,
  Handler,
  HandlerResult,
  HttpMethod,
  Loose,
  Next,
  PathParams,
  RawHeaders,
  RawQuery,
  Responses,
  RouteDef,
  RouteOptions,
  SecurityRequirement,
  Sent,
  TypedRouteDef,
} from '../routing/types.js';
// Runtimes: a feature that cannot run on this runtime refuses to start with this error
export {
  ENGINE_UNSUPPORTED,
  EngineUnsupportedError,
  RUNTIME_UNSUPPORTED,
  RuntimeUnsupportedError,
} from '../runtime.js';
export { EVENT_STREAM_TYPE, type SseOptions } from '../sse/index.js';
export type { StaticOptions } from '../static/index.js';
export {
  type CollectedForm,
  type FileField,
  type FileOptions,
  MULTIPART_TYPE,
  type MultipartOutput,
  type MultipartSchema,
  type MultipartShape,
} from '../uploads/index.js';
export type { WebSocketConnection, WebSocketOptions } from '../websocket/index.js';
