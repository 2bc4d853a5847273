/**
 * The app's runtime: the one object every request of an app reads at request time (the hooks,
 * the Context, the answer path, the features), so integrations set after the App is created
 * still count. The App makes it and sets `translator`, `tracer` and `metrics` as they are used.
 * @module
 */
import type { FastifyRequest } from 'fastify';
import type { MetricsCollector, Tracer, Translator } from '../contracts.js';
import type { Logger, RequestLogEntry } from '../logger/index.js';

/**
 * Told of one finished request, before its request-log entry is written. Returning true keeps
 * the request quiet: no request-log entry, no metrics (the dev panel's own requests).
 */
export type RequestObserver = (entry: RequestLogEntry, request: FastifyRequest) => boolean;

/** What every request of one app reads: set when the App is created, integrations set later. */
export interface AppRuntime {
  /** The app's logger. */
  readonly logger: Logger;
  /** The translator, when one is set (`app.setTranslator()`). */
  translator: Translator | undefined;
  /** The tracer (`app.setTracer()`); fixed once the app has started. */
  tracer: Tracer;
  /** The metrics collector, when one is set (`app.setMetricsCollector()`). */
  metrics: MetricsCollector | undefined;
  /** Aborts when the graceful shutdown begins (streams end, readiness turns 503). */
  readonly shutdownBegun: AbortSignal;
  /** Aborts when the shutdown's deadline passes (work still running must stop). */
  readonly shutdownDeadline: AbortSignal;
  /** Paths whose requests are not logged (still counted); undefined when none are. */
  readonly requestLogExclude: ReadonlySet<string> | undefined;
  /** In-process observers of finished requests (the dev panel); usually none. */
  readonly observers: readonly RequestObserver[];
}
