import {
  context,
  type Tracer as OtelTracer,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  type TextMapPropagator,
  trace,
} from '@opentelemetry/api';
import type { Span, SpanStartOptions, Tracer } from '../../contracts.js';
import { OpenTelemetrySpan, otelSpanOf } from './span.js';

/** Options of `openTelemetry()`. */
export interface OpenTelemetryOptions {
  /**
   * The OpenTelemetry tracer spans start on.
   * @default trace.getTracer(name): the globally registered provider's, even one registered later
   */
  tracer?: OtelTracer;
  /** The instrumentation scope name when `tracer` is not given. @default 'keelson' */
  name?: string;
  /**
   * Reads the incoming `traceparent` (and `tracestate`).
   * @default the global propagator, which the OpenTelemetry NodeSDK sets to W3C Trace Context
   */
  propagator?: TextMapPropagator;
}

/**
 * A Keelson tracer on OpenTelemetry: a server span per request that continues the caller's
 * W3C trace, and child spans of any span it started (`{ parent: c.span }`).
 * @example
 * app.setTracer(openTelemetry());
 * // in a handler:
 * const span = app.tracer.start('load user', { parent: c.span });
 */
export class OpenTelemetryTracer implements Tracer {
  readonly #tracer: OtelTracer;
  readonly #propagator: TextMapPropagator | undefined;

  /** Prefer `openTelemetry(options)`. */
  constructor({ tracer, name = 'keelson', propagator }: OpenTelemetryOptions = {}) {
    this.#tracer = tracer ?? trace.getTracer(name);
    this.#propagator = propagator;
  }

  /** Starts a span: under `parent` when it is one of ours, else under the request's trace context. */
  start(name: string, options: SpanStartOptions = {}): Span {
    const parent = options.parent && otelSpanOf(options.parent);
    let ctx = context.active();
    if (parent) ctx = trace.setSpan(ctx, parent);
    else if (options.headers) {
      ctx = this.#propagator
        ? this.#propagator.extract(ROOT_CONTEXT, options.headers, headerGetter)
        : propagation.extract(ROOT_CONTEXT, options.headers);
    }
    const span = this.#tracer.startSpan(
      name,
      {
        kind: options.kind === 'server' ? SpanKind.SERVER : SpanKind.INTERNAL,
        ...(options.attributes ? { attributes: options.attributes } : {}),
      },
      ctx,
    );
    return new OpenTelemetrySpan(span);
  }

  /**
   * Runs `fn` with `span` active in OpenTelemetry's context, so `app.tracer.start()` without a
   * parent, and libraries instrumented with OpenTelemetry, nest under it. Needs a context manager
   * (the NodeSDK registers one).
   */
  withSpan<T>(span: Span, fn: () => T): T {
    const otel = otelSpanOf(span);
    return otel ? context.with(trace.setSpan(context.active(), otel), fn) : fn();
  }
}

const headerGetter = {
  get(carrier: Record<string, string | string[] | undefined>, key: string) {
    return carrier[key.toLowerCase()];
  },
  keys(carrier: Record<string, string | string[] | undefined>) {
    return Object.keys(carrier);
  },
};

/**
 * Creates a tracer on OpenTelemetry; `app.setTracer()` it.
 * @example app.setTracer(openTelemetry({ tracer: provider.getTracer('users-api') }));
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryTracer {
  return new OpenTelemetryTracer(options);
}
