import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AttributeValue,
  noopTracer,
  type RequestMetric,
  type Span,
  type SpanStartOptions,
  type Translator,
} from '../../src/extend/index.js';
import { get, post } from '../../src/index.js';
import { requestEntries, testApp } from './helpers.js';

class RecordingTracer {
  readonly spans: {
    name: string;
    options: SpanStartOptions | undefined;
    attrs: Record<string, AttributeValue>;
    errors: unknown[];
    ended: number;
  }[] = [];
  start(name: string, options?: SpanStartOptions): Span {
    const rec = {
      name,
      options,
      attrs: { ...options?.attributes },
      errors: [] as unknown[],
      ended: 0,
    };
    this.spans.push(rec);
    return {
      traceId: 'trace-123',
      setAttribute: (k, v) => {
        rec.attrs[k] = v;
      },
      recordError: (e) => {
        rec.errors.push(e);
      },
      end: () => {
        rec.ended++;
      },
    };
  }
}

describe('metrics collector', () => {
  it('records every request once with the route pattern, never the raw path', async () => {
    const { app } = testApp();
    const seen: RequestMetric[] = [];
    app.setMetricsCollector({ recordRequest: (m) => seen.push(m) });
    app.addRoutes(get('/users/:id', () => ({ ok: true })));
    await app.inject('/users/1');
    await app.inject('/users/2?x=y');
    await app.inject('/random/path/1');
    await app.inject('/random/path/2');
    expect(seen.map((m) => [m.method, m.route, m.statusCode])).toEqual([
      ['GET', '/users/:id', 200],
      ['GET', '/users/:id', 200],
      ['GET', 'unmatched', 404],
      ['GET', 'unmatched', 404],
    ]);
    for (const m of seen) expect(m.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('records the route pattern also for a request the body parser refused before the handler ran', async () => {
    const { app } = testApp();
    const seen: RequestMetric[] = [];
    app.setMetricsCollector({ recordRequest: (m) => seen.push(m) });
    app.addRoutes(post('/users/:id', (c) => c.body));
    await app.inject({
      method: 'POST',
      url: '/users/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken',
    });
    expect(seen.map((m) => [m.route, m.statusCode])).toEqual([['/users/:id', 400]]);
  });

  it('keeps serving and logs a warning when the collector throws', async () => {
    const { app, lines } = testApp();
    app.setMetricsCollector({
      recordRequest: () => {
        throw new Error('collector down');
      },
    });
    app.addRoutes(get('/x', () => 1));
    expect((await app.inject('/x')).statusCode).toBe(200);
    expect(lines.some((l) => l.includes('collector down'))).toBe(true);
  });
});

describe('tracer', () => {
  it('is a no-op tracer by default, never null', () => {
    const { app } = testApp();
    expect(app.tracer).toBe(noopTracer);
  });

  it('opens one server span per request named after the route, with http attributes, ended after the response', async () => {
    const { app, lines } = testApp();
    const tracer = new RecordingTracer();
    app.setTracer(tracer);
    let spanInHandler: Span | undefined;
    app.addRoutes(
      get('/users/:id', (c) => {
        spanInHandler = c.span;
        c.span.setAttribute('user.id', c.params.id);
        return { ok: true };
      }),
      get('/boom', () => {
        throw new Error('kaboom');
      }),
    );
    await app.inject({ url: '/users/7', headers: { traceparent: '00-abc-def-01' } });
    await app.inject('/boom');
    await app.inject('/nowhere');
    expect(tracer.spans.map((s) => s.name)).toEqual(['GET /users/:id', 'GET /boom', 'GET']);
    const [users, boom] = tracer.spans;
    expect(users?.options?.kind).toBe('server');
    expect(users?.options?.headers?.traceparent).toBe('00-abc-def-01');
    expect(users?.attrs).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/users/:id',
      'url.path': '/users/7',
      'http.response.status_code': 200,
      'user.id': '7',
    });
    expect(spanInHandler).toBeDefined();
    expect(boom?.errors).toHaveLength(1);
    expect(boom?.attrs['http.response.status_code']).toBe(500);
    for (const s of tracer.spans) expect(s.ended).toBe(1);
    // An unmatched request has no route to name.
    expect(tracer.spans[2]?.attrs).toMatchObject({ 'url.path': '/nowhere' });
    expect(tracer.spans[2]?.attrs).not.toHaveProperty('http.route');
    expect(requestEntries(lines)[0]?.traceId).toBe('trace-123');
  });

  it('must be set before the app starts', async () => {
    const { app } = testApp();
    await app.ready();
    expect(() => app.setTracer(new RecordingTracer())).toThrow(/before the app starts/);
  });
});

describe('translator', () => {
  const catalog: Record<string, Record<string, string>> = {
    en: { hello: 'Hello, %s' },
    fr: { hello: 'Bonjour, %s' },
    'pt-BR': { hello: 'Olá, %s' },
  };
  const translator: Translator = {
    locales: () => ['en', 'fr', 'pt-BR'],
    t: (locale, key, ...args) => (catalog[locale]?.[key] ?? key).replace('%s', String(args[0])),
  };

  it('negotiates c.lang from Accept-Language with q-values and translates with c.t', async () => {
    const { app } = testApp();
    app.setTranslator(translator);
    app.addRoutes(
      get('/hi', { query: z.object({ name: z.string() }) }, (c) => ({
        lang: c.lang,
        text: c.t('hello', c.query.name),
      })),
    );
    const ask = async (al?: string) =>
      (
        await app.inject({ url: '/hi?name=Ada', headers: al ? { 'accept-language': al } : {} })
      ).json();
    expect(await ask('fr-CH, fr;q=0.9, en;q=0.8')).toEqual({ lang: 'fr', text: 'Bonjour, Ada' });
    expect(await ask('de, en;q=0.5, fr;q=0.7')).toEqual({ lang: 'fr', text: 'Bonjour, Ada' });
    expect(await ask('pt')).toEqual({ lang: 'pt-BR', text: 'Olá, Ada' });
    expect(await ask('de')).toEqual({ lang: 'en', text: 'Hello, Ada' });
    expect(await ask('fr;q=0, en')).toEqual({ lang: 'en', text: 'Hello, Ada' });
    expect(await ask()).toEqual({ lang: 'en', text: 'Hello, Ada' });
  });

  it('returns the key from c.t when no translator is set', async () => {
    const { app } = testApp();
    app.addRoutes(get('/hi', (c) => c.t('greeting.hello')));
    expect((await app.inject('/hi')).json()).toBe('greeting.hello');
  });
});

describe('scheduler', () => {
  it('registers its stop as a shutdown hook at the moment of the call, in order', async () => {
    const { app } = testApp();
    const order: string[] = [];
    app.onShutdown(() => {
      order.push('before');
    });
    app.registerScheduler({
      add: () => {},
      start: () => order.push('start'),
      stop: async (signal) => {
        order.push(signal instanceof AbortSignal ? 'stop' : 'stop-without-signal');
      },
    });
    app.onShutdown(() => {
      order.push('after');
    });
    expect(await app.close()).toBe(true);
    expect(order).toEqual(['before', 'stop', 'after']);
  });
});
