import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from './logger/index.js';

/** A value a span attribute may hold. */
export type AttributeValue = string | number | boolean;

/** One unit of traced work: a request, or a piece of work inside one. */
export interface Span {
  /** Sets an attribute on the span. */
  setAttribute(key: string, value: AttributeValue): void;
  /** Records an error on the span and marks it failed. */
  recordError(error: unknown): void;
  /** Ends the span; later calls do nothing. */
  end(): void;
  /** The trace id, when the tracer has one; written to JSON request-log entries as `traceId`. */
  readonly traceId?: string | undefined;
}

/** What a tracer is told when a span starts. */
export interface SpanStartOptions {
  /** `server` for an incoming request, `client` for a call out (a database query), else `internal`. @default 'internal' */
  kind?: 'server' | 'client' | 'internal';
  /** Attributes set when the span starts. */
  attributes?: Record<string, AttributeValue>;
  /** The incoming request's headers, so a tracer can continue a W3C `traceparent`. */
  headers?: IncomingHttpHeaders;
  /** The span this one is a child of, e.g. `c.span` in a handler; a tracer ignores spans it did not start. */
  parent?: Span;
}

/** Starts spans. The App opens one server span per request. */
export interface Tracer {
  /** Starts a span named `name`. */
  start(name: string, options?: SpanStartOptions): Span;
  /**
   * Runs `fn` with `span` as the active span, so spans started inside it — by the handler or by
   * instrumented libraries — become its children. Optional: the App runs each handler inside it.
   */
  withSpan?<T>(span: Span, fn: () => T): T;
}

/** One finished request, as given to a metrics collector. */
export interface RequestMetric {
  /** The HTTP method, upper case. */
  method: string;
  /** The route pattern (`/users/:id`), never the raw path; unmatched requests share one value. */
  route: string;
  /** The response status code. */
  statusCode: number;
  /** Time from the request's arrival to the end of its response, in milliseconds. */
  durationMs: number;
  /** The operationId of the route, set only when the route is deprecated: who still calls it. */
  deprecated?: string;
}

/** One finished try of a background job (keelson/queue), as given to a metrics collector. */
export interface JobMetric {
  /** The queue's name. */
  queue: string;
  /** The job's name. */
  job: string;
  /** How the try ended; a job retried after a failure gives one `failed` record per failed try. */
  status: 'completed' | 'failed';
  /** Time the try ran, in milliseconds. */
  durationMs: number;
}

/** One finished database query (keelson/db), as given to a metrics collector. */
export interface QueryMetric {
  /** The statement's first keyword, lower case: `select`, `insert`, `update`, `delete`, …. */
  operation: string;
  /** Time the query took, in milliseconds. */
  durationMs: number;
  /** True when it failed. */
  failed: boolean;
}

/** Receives one record per finished request (and, optionally, per finished job or query). */
export interface MetricsCollector {
  /** Records one finished request. Called after the response is sent; must not throw. */
  recordRequest(metric: RequestMetric): void;
  /** Records one finished try of a background job. Optional: collectors without it ignore jobs. */
  recordJob?(metric: JobMetric): void;
  /** Records one finished database query. Optional: collectors without it ignore queries. */
  recordQuery?(metric: QueryMetric): void;
}

/** Translates message keys into a locale. */
export interface Translator {
  /** The translation of `key` in `locale`, with `args` filled in. */
  t(locale: string, key: string, ...args: unknown[]): string;
  /** The locales this translator has, the default first. */
  locales(): readonly string[];
}

/** What a job's handler is told of the run. */
export interface JobTick {
  /** The time the run was scheduled for (not when it started): the same on every replica. */
  readonly scheduledAt: Date;
}

/** A job a scheduler runs on a cron schedule. */
export interface Job {
  /** A unique name, used in logs and health. */
  name: string;
  /** A 5- or 6-field cron expression. */
  schedule: string;
  /** The work; `signal` aborts when the service shuts down. */
  handler(signal: AbortSignal, tick: JobTick): Promise<void> | void;
}

/** What the App hands a scheduler when `listen()` starts it. */
export interface SchedulerStart {
  /** The app's logger. */
  readonly logger: Logger;
  /** Aborts when the app's shutdown begins: no run may start after that. */
  readonly shutdownBegun: AbortSignal;
}

/** What a scheduler knows of one job, for the dev panel. */
export interface JobStatus {
  /** The job's name. */
  readonly name: string;
  /** Its cron expression. */
  readonly schedule: string;
  /** Whether a run is under way. */
  readonly running: boolean;
  /** Runs finished so far, failed ones included. */
  readonly runs: number;
  /** The error of the last run, when it failed. */
  readonly lastError: unknown;
  /** When the next scheduled run is due, once started; null when none is. */
  readonly nextRun: Date | null;
  /** When the last run started; null before the first. */
  readonly lastRun: Date | null;
}

/** Runs jobs on schedules; started by `listen()` and stopped at shutdown. */
export interface Scheduler {
  /** Adds a job. */
  add(job: Job): void;
  /** Starts running jobs on their schedules. */
  start(context?: SchedulerStart): void;
  /** Stops scheduling and waits for running jobs until `signal` aborts. */
  stop(signal: AbortSignal): Promise<void>;
  /** The status of every job, for the dev panel. Optional. */
  status?(): readonly JobStatus[];
}

/** Reports whether one dependency of the service is healthy. */
export interface HealthChecker {
  /** The key of this checker in the health body's `checks`. */
  name(): string;
  /**
   * Resolves when healthy (with a string: healthy, with that warning shown in the report);
   * throws or rejects when not. `signal` aborts on timeout or when the client goes away.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a checker returns nothing, or a warning
  check(signal: AbortSignal): Promise<void | string> | void | string;
  /**
   * Which probe a DOWN fails. `'readiness'` (the default): `/health` and `/health/ready` answer
   * 503, so the replica leaves the load balancer. `'liveness'`: `/health/live` runs it too and
   * answers 503, so the orchestrator restarts the process (readiness fails as well). `'none'`:
   * shown in the reports' `checks`, failing no probe; for a dependency every replica shares,
   * whose outage would otherwise take them all out at once.
   */
  affects?: 'readiness' | 'liveness' | 'none';
}

/** A function run during graceful shutdown; `signal` aborts at the shutdown deadline. */
export type ShutdownHook = (signal: AbortSignal) => Promise<void> | void;

const noopSpan: Span = Object.freeze({
  setAttribute() {},
  recordError() {},
  end() {},
  traceId: undefined,
});

/** A tracer that records nothing: the App's default. */
export const noopTracer: Tracer = Object.freeze({
  start(): Span {
    return noopSpan;
  },
});

/** The span the no-op tracer hands out. */
export const NOOP_SPAN: Span = noopSpan;

/**
 * Throws a TypeError unless `value` is an object with a function at each of `methods`, in the
 * words the App has always used: `a tracer must have a start(name) method`.
 */
export function assertContract(
  value: unknown,
  methods: readonly string[],
  what: string,
  signature: string,
): void {
  const ok =
    typeof value === 'object' &&
    value !== null &&
    methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
  if (!ok) {
    const needs = methods.length > 1 ? `${signature} methods` : `a ${signature} method`;
    throw new TypeError(`${what} must have ${needs}`);
  }
}
