import { DiagLogLevel, diag, type Span as OtelSpan, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { OpenTelemetrySpan } from '../../src/integrations/opentelemetry/index.js';

// A Keelson span over a real SDK span: what a status code and an error write, and what a span
// it does not own is spared.

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('t');
  const finished = (): ReadableSpan[] => exporter.getFinishedSpans();
  return { start: (name: string): OtelSpan => tracer.startSpan(name), finished };
}

describe('OpenTelemetrySpan', () => {
  it('marks the span failed on a 5xx status code only, once, without a message', () => {
    const { start, finished } = sdk();
    const statuses: [unknown, string | undefined][] = [
      [499, undefined],
      [500, '500'],
      [503, '500'],
      ['500', undefined],
    ];
    for (const [value, type] of statuses) {
      const s = new OpenTelemetrySpan(start(`s ${String(value)}`));
      if (value === 503) s.setAttribute('http.response.status_code', 500);
      s.setAttribute('http.response.status_code', value as number);
      s.setAttribute('other.code', 502);
      s.end();
      const span = finished().at(-1)!;
      expect(span.attributes['error.type']).toBe(type);
      expect(span.status).toStrictEqual(
        type === undefined ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR },
      );
    }
  });

  it('records an error as an exception with its class, message or printed value', () => {
    const { start, finished } = sdk();
    class PaymentError extends Error {}
    const anonymous = new (class extends Error {})('nameless');
    const unprintable = {
      toString() {
        throw new Error('no');
      },
    };
    const errors: [unknown, string, string][] = [
      [new PaymentError('card declined'), 'PaymentError', 'card declined'],
      [anonymous, 'Error', 'nameless'],
      ['just text', 'string', 'just text'],
      [42, 'number', '42'],
    ];
    for (const [error, type, message] of errors) {
      const s = new OpenTelemetrySpan(start('e'));
      s.recordError(error);
      s.end();
      const span = finished().at(-1)!;
      expect(span.attributes['error.type']).toBe(type);
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message });
      expect(span.events.map((e) => e.name)).toEqual(['exception']);
    }
    // A value that throws when printed must not make recording it throw.
    const s = new OpenTelemetrySpan(start('u'));
    s.recordError(unprintable);
    s.end();
    expect(finished().at(-1)!.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'an unprintable value',
    });
    const printable = new OpenTelemetrySpan(start('p'));
    printable.recordError({ toString: () => 'custom' });
    printable.end();
    expect(finished().at(-1)!.events[0]?.attributes?.['exception.message']).toBe('custom');
  });

  it('ends an owned span once, never one it does not own, and leaves that one alone once ended', () => {
    const { start, finished } = sdk();
    // The SDK warns through diag when an ended span is ended or written to again.
    const warnings: string[] = [];
    const log = (m: string) => warnings.push(m);
    diag.setLogger(
      { error: log, warn: log, info: () => {}, debug: () => {}, verbose: () => {} },
      DiagLogLevel.WARN,
    );
    const owned = new OpenTelemetrySpan(start('owned'));
    owned.end();
    owned.end();
    expect(finished().map((s) => s.name)).toEqual(['owned']);

    const raw = start('theirs');
    const theirs = new OpenTelemetrySpan(raw, { owned: false });
    theirs.setAttribute('before', 1);
    theirs.end();
    expect(raw.isRecording()).toBe(true);
    raw.end();
    // Written to after its owner ended it: nothing happens, not even a warning from the SDK.
    theirs.setAttribute('after', 2);
    theirs.recordError(new Error('late'));
    const [, span] = finished();
    expect(span?.name).toBe('theirs');
    expect(span?.attributes).toEqual({ before: 1 });
    expect(span?.events).toEqual([]);
    expect(theirs.traceId).toMatch(/^[0-9a-f]{32}$/);
    diag.disable();
    expect(warnings).toEqual([]);
  });
});
