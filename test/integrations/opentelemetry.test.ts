import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/db/index.js';
import { NOOP_SPAN } from '../../src/extend/index.js';
import { type App, get, serviceUnavailable } from '../../src/index.js';
import { openTelemetry, otelSpanOf } from '../../src/integrations/opentelemetry/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';

function tracedApp(): { app: App; lines: string[]; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const { app, lines } = testApp();
  app.setTracer(
    openTelemetry({
      tracer: provider.getTracer('test'),
      propagator: new W3CTraceContextPropagator(),
    }),
  );
  app.addRoutes(
    get('/users/:id', (c) => {
      c.span.setAttribute('user.id', c.params.id);
      const child = app.tracer.start('load user', { parent: c.span });
      child.setAttribute('db.system', 'memory');
      child.end();
      return { id: c.params.id };
    }),
    get('/boom', () => {
      throw new TypeError('kaboom');
    }),
    get('/down', () => {
      throw serviceUnavailable('the store is down');
    }),
    get('/teapot', (c) => c.status(418, { short: true })),
  );
  return { app, lines, spans: () => exporter.getFinishedSpans() };
}

function serverSpans(spans: ReadableSpan[]): ReadableSpan[] {
  return spans.filter((s) => s.kind === SpanKind.SERVER);
}

describe('keelson/opentelemetry', () => {
  it('opens one server span per request with the HTTP semantic-convention attributes', async () => {
    const { app, spans } = tracedApp();
    await app.inject({
      url: '/users/42?expand=1',
      headers: { host: 'api.example.com:8443', 'user-agent': 'probe/1.0' },
      remoteAddress: '10.1.2.3',
    });
    await app.inject('/nowhere');
    const [users, unmatched, ...rest] = serverSpans(spans());
    expect(rest).toEqual([]);
    expect(users?.name).toBe('GET /users/:id');
    expect(users?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/users/:id',
      'url.path': '/users/42',
      'http.response.status_code': 200,
      'user.id': '42',
      'url.scheme': 'http',
      'server.address': 'api.example.com',
      'server.port': 8443,
      'network.protocol.version': '1.1',
      'user_agent.original': 'probe/1.0',
      'client.address': '10.1.2.3',
    });
    expect(users?.status.code).toBe(SpanStatusCode.UNSET);
    expect(users?.ended).toBe(true);
    expect(unmatched?.name).toBe('GET');
    expect(unmatched?.attributes['http.route']).toBeUndefined();
    expect(unmatched?.attributes['http.response.status_code']).toBe(404);
    expect(unmatched?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('continues the W3C traceparent of the request', async () => {
    const { app, spans } = tracedApp();
    await app.inject({
      url: '/users/1',
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'vendor=x' },
    });
    const [server] = serverSpans(spans());
    expect(server?.spanContext().traceId).toBe(TRACE_ID);
    expect(server?.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(server?.parentSpanContext?.isRemote).toBe(true);
    expect(server?.spanContext().traceState?.get('vendor')).toBe('x');
  });

  it('starts a new trace when the request has no traceparent, or a malformed one', async () => {
    const { app, spans } = tracedApp();
    await app.inject('/users/1');
    await app.inject({ url: '/users/2', headers: { traceparent: '00-zz-yy-01' } });
    const [a, b] = serverSpans(spans());
    expect(a?.parentSpanContext).toBeUndefined();
    expect(b?.parentSpanContext).toBeUndefined();
    expect(a?.spanContext().traceId).not.toBe(b?.spanContext().traceId);
  });

  it('marks a 5xx span ERROR and records the exception of a thrown error', async () => {
    const { app, spans } = tracedApp();
    await app.inject('/boom');
    await app.inject('/down');
    await app.inject('/teapot');
    const [boom, down, teapot] = serverSpans(spans());
    expect(boom?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'kaboom' });
    expect(boom?.attributes['error.type']).toBe('TypeError');
    expect(boom?.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([
      ['exception', 'kaboom'],
    ]);
    expect(down?.status.code).toBe(SpanStatusCode.ERROR);
    expect(down?.attributes['http.response.status_code']).toBe(503);
    expect(teapot?.status.code).toBe(SpanStatusCode.UNSET);
    expect(teapot?.events).toEqual([]);
  });

  it('writes the trace id of the server span to the JSON request-log entry', async () => {
    const { app, lines, spans } = tracedApp();
    await app.inject({
      url: '/users/1',
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    await app.inject('/users/2');
    const [first, second] = requestEntries(lines);
    expect(first?.traceId).toBe(TRACE_ID);
    expect(second?.traceId).toBe(serverSpans(spans())[1]?.spanContext().traceId);
  });

  it('lets a handler open a child span of c.span through app.tracer', async () => {
    const { app, spans } = tracedApp();
    await app.inject('/users/7');
    const all = spans();
    const server = serverSpans(all)[0]!;
    const child = all.find((s) => s.name === 'load user')!;
    expect(child.kind).toBe(SpanKind.INTERNAL);
    expect(child.spanContext().traceId).toBe(server.spanContext().traceId);
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(child.attributes['db.system']).toBe('memory');
  });

  it('makes a client span under the request for a keelson/db query, with the query text only', async () => {
    const { app, spans } = tracedApp();
    const db = database({ url: 'memory://' });
    app.use(db);
    app.addRoutes(get('/db/:v', (c) => db.sql`select ${c.params.v}::text as v`.one()));
    await app.inject('/db/private-value');
    const all = spans();
    const server = all.find((s) => s.kind === SpanKind.SERVER && s.name.includes('/db/'))!;
    const query = all.find((s) => s.name === 'db select')!;
    expect(query.kind).toBe(SpanKind.CLIENT);
    expect(query.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(query.attributes).toEqual({
      'db.system.name': 'postgresql',
      'db.operation.name': 'SELECT',
      'db.query.text': 'select $1::text as v',
    });
    await app.close();
  }, 60_000);

  it('ignores a parent it did not start, and ends a span only once', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = openTelemetry({ tracer: provider.getTracer('test') });
    const span = tracer.start('work', { parent: NOOP_SPAN });
    expect(otelSpanOf(span)).toBeDefined();
    expect(otelSpanOf(NOOP_SPAN)).toBeUndefined();
    span.end();
    span.end();
    const [only, ...rest] = exporter.getFinishedSpans();
    expect(rest).toEqual([]);
    expect(only?.parentSpanContext).toBeUndefined();
  });

  it('gives no trace id, and logs none, while no OpenTelemetry SDK is registered', async () => {
    const { app, lines } = testApp();
    app.setTracer(openTelemetry());
    app.addRoutes(get('/x', () => 1));
    await app.inject({ url: '/x', headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
    expect(requestEntries(lines)[0]).not.toHaveProperty('traceId');
  });
});

describe('keelson/opentelemetry with a context manager', () => {
  it('extracts the trace context from the active context, not from an empty one', async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const { app, spans } = tracedApp();
      const provider = new BasicTracerProvider();
      const outer = provider.getTracer('caller').startSpan('caller', { kind: SpanKind.INTERNAL });
      await context.with(trace.setSpan(context.active(), outer), () => app.inject('/users/1'));
      outer.end();
      const [server] = serverSpans(spans());
      expect(server?.spanContext().traceId).toBe(outer.spanContext().traceId);
      expect(server?.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    } finally {
      context.disable();
    }
  });

  it('makes the request span active in the handler, so spans started inside nest under it', async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const exporter = new InMemorySpanExporter();
      const provider = new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      });
      const { app } = testApp();
      app.setTracer(openTelemetry({ tracer: provider.getTracer('test') }));
      app.addRoutes(
        get('/work', async () => {
          await new Promise((resolve) => setImmediate(resolve));
          app.tracer.start('keelson child').end();
          // As an instrumented library would: straight on OpenTelemetry, no parent given.
          provider.getTracer('some-lib').startSpan('library call').end();
          return { ok: true };
        }),
      );
      await app.inject('/work');
      const spans = exporter.getFinishedSpans();
      const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
      const parentOf = (name: string) =>
        spans.find((s) => s.name === name)?.parentSpanContext?.spanId;
      expect(parentOf('keelson child')).toBe(server.spanContext().spanId);
      expect(parentOf('library call')).toBe(server.spanContext().spanId);
    } finally {
      context.disable();
    }
  });
});
