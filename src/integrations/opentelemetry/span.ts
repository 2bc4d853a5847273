import {
  type Exception,
  isSpanContextValid,
  type Span as OtelSpan,
  SpanStatusCode,
} from '@opentelemetry/api';
import type { AttributeValue, Span } from '../../contracts.js';

const STATUS_CODE = 'http.response.status_code';
const ERROR_TYPE = 'error.type';

const underlying = new WeakMap<Span, OtelSpan>();

/**
 * The OpenTelemetry span behind a Keelson span (e.g. `c.span`), to run instrumented code in its
 * context; undefined for a span another tracer started.
 * @example context.with(trace.setSpan(context.active(), otelSpanOf(c.span)!), () => db.query())
 */
export function otelSpanOf(span: Span): OtelSpan | undefined {
  return underlying.get(span);
}

/**
 * A Keelson span over an OpenTelemetry span. A 5xx `http.response.status_code` or a recorded
 * error sets the status to ERROR and `error.type`, as the HTTP semantic conventions ask.
 */
export class OpenTelemetrySpan implements Span {
  /** The trace id, when the span belongs to a sampled or propagated trace. */
  readonly traceId: string | undefined;
  readonly #span: OtelSpan;
  #failed = false;
  #ended = false;

  /** Wraps `span`; made by `OpenTelemetryTracer.start`. */
  constructor(span: OtelSpan) {
    this.#span = span;
    const sc = span.spanContext();
    this.traceId = isSpanContextValid(sc) ? sc.traceId : undefined;
    underlying.set(this, span);
  }

  /** Sets an attribute; a 5xx status code marks the span failed. */
  setAttribute(key: string, value: AttributeValue): void {
    this.#span.setAttribute(key, value);
    if (key === STATUS_CODE && typeof value === 'number' && value >= 500 && !this.#failed) {
      this.#fail(String(value));
    }
  }

  /** Records `error` as an exception event and marks the span failed. */
  recordError(error: unknown): void {
    this.#span.recordException(asException(error));
    const type = error instanceof Error ? error.constructor.name || error.name : typeof error;
    this.#fail(type, error instanceof Error ? error.message : String(error));
  }

  /** Ends the span; later calls do nothing. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.end();
  }

  #fail(type: string, message?: string): void {
    this.#failed = true;
    this.#span.setAttribute(ERROR_TYPE, type);
    this.#span.setStatus(
      message === undefined
        ? { code: SpanStatusCode.ERROR }
        : { code: SpanStatusCode.ERROR, message },
    );
  }
}

function asException(error: unknown): Exception {
  if (error instanceof Error || typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    return 'an unprintable value';
  }
}
