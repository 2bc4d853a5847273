/**
 * keelson/opentelemetry: a Tracer on the OpenTelemetry API (an optional peer dependency:
 * install `@opentelemetry/api`, and an SDK to export the spans).
 * @module
 */

export { OpenTelemetrySpan, type OpenTelemetrySpanOptions, otelSpanOf } from './span.js';
export { type OpenTelemetryOptions, OpenTelemetryTracer, openTelemetry } from './tracer.js';
