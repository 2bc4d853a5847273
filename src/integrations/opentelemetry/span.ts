import type { Exception, Span as OtelSpan } from '@opentelemetry/api';
import type { AttributeValue, Span } from '../../contracts.js';
import { otel } from './peer.js';

const { isSpanContextValid, SpanStatusCode } = otel;

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

/** Options of an OpenTelemetrySpan. */
export interface OpenTelemetrySpanOptions {
  /** False for a span another instrumentation started and will end itself. @default true */
  owned?: boolean;
}

/**
 * A Keelson span over an OpenTelemetry span. A 5xx `http.response.status_code` or a recorded
 * error sets the status to ERROR and `error.type`, as the HTTP semantic conventions ask. A span
 * it does not own is never ended by it, and not written to once its owner ended it.
 */
export class OpenTelemetrySpan implements Span {
  /** The trace id, when the span belongs to a sampled or propagated trace. */
  readonly traceId: string | undefined;
  readonly #span: OtelSpan;
  readonly #owned: boolean;
  #failed = false;
  #ended = false;

  /** Wraps `span`; made by `OpenTelemetryTracer.start`. */
  constructor(span: OtelSpan, { owned = true }: OpenTelemetrySpanOptions = {}) {
    this.#span = span;
    this.#owned = owned;
    const sc = span.spanContext();
    this.traceId = isSpanContextValid(sc) ? sc.traceId : undefined;
    underlying.set(this, span);
  }

  /** Sets an attribute; a 5xx status code marks the span failed. */
  setAttribute(key: string, value: AttributeValue): void {
    if (!this.#owned && !this.#span.isRecording()) return;
    this.#span.setAttribute(key, value);
    if (key === STATUS_CODE && typeof value === 'number' && value >= 500 && !this.#failed) {
      this.#fail(String(value));
    }
  }

  /** Records `error` as an exception event and marks the span failed. */
  recordError(error: unknown): void {
    if (!this.#owned && !this.#span.isRecording()) return;
    const exception = asException(error);
    this.#span.recordException(exception);
    const type = error instanceof Error ? error.constructor.name || error.name : typeof error;
    this.#fail(type, error instanceof Error ? error.message : String(exception));
  }

  /** Ends the span; later calls do nothing. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#owned) this.#span.end();
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
