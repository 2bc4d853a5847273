import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get, post } from '../../src/index.js';
import { LogFormat } from '../../src/logger/index.js';
import { memoryLogger, requestEntries, testApp } from './helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DURATION = /^\d+\.\dms$/;

describe('request logging', () => {
  it('writes one JSON entry per request, 404s, health and failures included, path without its query', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/ok', () => ({ ok: true })),
      post('/v', { body: z.object({ a: z.string() }) }, (c) => c.body),
      get('/boom', () => {
        throw new Error('kaboom');
      }),
    );
    await app.inject('/ok?token=secret');
    await app.inject('/missing');
    await app.inject('/health');
    await app.inject({ method: 'POST', url: '/v', payload: {} });
    await app.inject('/boom');
    const entries = requestEntries(lines);
    expect(entries.map((e) => [e.level, e.method, e.path, e.status])).toEqual([
      ['info', 'GET', '/ok', 200],
      ['warn', 'GET', '/missing', 404],
      ['info', 'GET', '/health', 200],
      ['warn', 'POST', '/v', 422],
      ['error', 'GET', '/boom', 500],
    ]);
    for (const e of entries) {
      expect(e.time).toMatch(ISO);
      expect(e.duration).toMatch(DURATION);
      expect(Object.keys(e).slice(0, 6)).toEqual([
        'level',
        'time',
        'method',
        'path',
        'status',
        'duration',
      ]);
    }
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('puts the stack of a 500 in the error-level entry, and nothing of it in the body', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/boom', function explode() {
        throw new Error('kaboom');
      }),
    );
    const res = await app.inject('/boom');
    expect(res.body).not.toContain('kaboom');
    const [entry] = requestEntries(lines);
    expect(entry?.level).toBe('error');
    expect(entry?.error).toMatch(/Error: kaboom\n\s+at explode/);
  });

  it('logs a deliberate 5xx answer (a DOWN health check) at error level without an error field', async () => {
    const { app, lines } = testApp();
    app.registerHealthChecker({
      name: () => 'db',
      check: () => {
        throw new Error('connection refused');
      },
    });
    expect((await app.inject('/health')).statusCode).toBe(503);
    const [entry] = requestEntries(lines);
    expect(entry).toMatchObject({ level: 'error', path: '/health', status: 503 });
    expect(entry).not.toHaveProperty('error');
  });

  it('writes the exact text line format', async () => {
    const { logger, lines } = memoryLogger(LogFormat.Text);
    const app = new App({ serviceName: 't', logger });
    app.addRoutes(get('/users/:id', () => ({ ok: true })));
    await app.inject('/users/42?x=1');
    await app.inject('/nope');
    expect(lines[0]).toMatch(
      /^\[INFO\] \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GET \/users\/42 200 \d+\.\dms$/,
    );
    expect(lines[1]).toMatch(
      /^\[WARN\] \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GET \/nope 404 \d+\.\dms$/,
    );
  });

  it('cannot be tricked into forging a log line through the path', async () => {
    const { logger, lines } = memoryLogger(LogFormat.Text);
    const app = new App({ serviceName: 't', logger });
    await app.inject('/a%0A[INFO] 2026-01-01 00:00:00 GET /forged 200 1.0ms');
    expect(lines).toHaveLength(1);
  });
});

describe('requestLog.exclude', () => {
  it('keeps the excluded paths out of the request log, whatever their query, and still counts them', async () => {
    const counted: string[] = [];
    const { app, lines } = testApp({ requestLog: { exclude: ['/health/live', '/metrics'] } });
    app.setMetricsCollector({
      recordRequest: (m) => void counted.push(`${m.route} ${m.statusCode}`),
    });
    app.addRoutes(
      get('/metrics', () => 'm'),
      get('/work', () => 'w'),
    );
    await app.inject('/health/live');
    await app.inject('/metrics?x=1');
    await app.inject('/work');
    await app.inject('/metrics/other');
    expect(requestEntries(lines).map((e) => e.path)).toEqual(['/work', '/metrics/other']);
    expect(counted).toEqual(['/health/live 200', '/metrics 200', '/work 200', 'unmatched 404']);
  });

  it('rejects a path that does not start with /', () => {
    expect(() => testApp({ requestLog: { exclude: ['metrics'] } })).toThrow(
      `requestLog.exclude: each path should start with '/', instead got "metrics"`,
    );
  });
});
