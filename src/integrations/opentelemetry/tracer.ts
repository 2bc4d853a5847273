import type {
  Context,
  Span as OtelSpan,
  Tracer as OtelTracer,
  TextMapPropagator,
} from '@opentelemetry/api';
import type { Span, SpanStartOptions, Tracer } from '../../contracts.js';
import { otel } from './peer.js';
import { OpenTelemetrySpan, otelSpanOf } from './span.js';

const { context, defaultTextMapGetter, propagation, SpanKind, trace } = otel;

const SPAN_KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
} as const;

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
 * W3C trace, and child spans of any span it started (`{ parent: c.span }`). When a transport
 * instrumentation (`@opentelemetry/instrumentation-http`) already opened the request's server
 * span, that span is enriched (named `GET /users/:id`, given `http.route`) instead of a
 * duplicate being started under it.
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
    else if (options.kind === 'server') {
      const transport = activeServerSpan(ctx);
      if (transport) return enrich(transport, name, options);
      if (options.headers) {
        ctx = this.#propagator
          ? this.#propagator.extract(ctx, options.headers, defaultTextMapGetter)
          : propagation.extract(ctx, options.headers, defaultTextMapGetter);
      }
    }
    const span = this.#tracer.startSpan(
      name,
      {
        kind: SPAN_KINDS[options.kind ?? 'internal'],
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
    const otelSpan = otelSpanOf(span);
    return otelSpan ? context.with(trace.setSpan(context.active(), otelSpan), fn) : fn();
  }
}

/** The recording SERVER span a transport instrumentation made active for this request, if any. */
function activeServerSpan(ctx: Context): OtelSpan | undefined {
  const span = trace.getSpan(ctx);
  // `kind` is on the SDK's spans (ReadableSpan); a span without it is not taken over.
  if (!span?.isRecording() || (span as { kind?: unknown }).kind !== SpanKind.SERVER) return;
  return span;
}

function enrich(span: OtelSpan, name: string, options: SpanStartOptions): Span {
  span.updateName(name);
  if (options.attributes) span.setAttributes(options.attributes);
  // The instrumentation that started the span ends it, and sets its status code.
  return new OpenTelemetrySpan(span, { owned: false });
}

/**
 * Creates a tracer on OpenTelemetry; `app.setTracer()` it.
 * @example app.setTracer(openTelemetry({ tracer: provider.getTracer('users-api') }));
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryTracer {
  return new OpenTelemetryTracer(options);
}
