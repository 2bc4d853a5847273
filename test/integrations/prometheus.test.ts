import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { prometheus } from '../../src/integrations/prometheus/index.js';
import { testApp } from '../app/helpers.js';
import { systemTool } from '../support/system-tool.js';

const promtool = systemTool('promtool', 'prometheus');

/** The sample lines of one metric family, e.g. every `http_requests_total{…} n` line. */
function samples(text: string, prefix: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(prefix));
}

function appWithMetrics(options: Parameters<typeof prometheus>[0] = {}) {
  const { app, lines } = testApp();
  const metrics = prometheus(options);
  app.use(metrics);
  app.addRoutes(
    get('/users/:id', () => ({ ok: true })),
    get('/boom', () => {
      throw new Error('kaboom');
    }),
  );
  return { app, metrics, lines };
}

describe('keelson/prometheus', () => {
  it('counts requests by method, route pattern and status, unknown paths as unmatched', async () => {
    const { app } = appWithMetrics();
    await app.inject('/users/1');
    await app.inject('/users/2');
    await app.inject('/boom');
    await app.inject('/no/such/path');
    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(samples(res.body, 'http_requests_total{').sort()).toEqual([
      'http_requests_total{method="GET",route="/boom",status_code="500"} 1',
      'http_requests_total{method="GET",route="/users/:id",status_code="200"} 2',
      'http_requests_total{method="GET",route="unmatched",status_code="404"} 1',
    ]);
  });

  it('observes durations in seconds in a histogram with the default buckets', async () => {
    const { app } = appWithMetrics();
    await app.inject('/users/1');
    const text = (await app.inject('/metrics')).body;
    const labels = 'method="GET",route="/users/:id",status_code="200"';
    const les = samples(text, 'http_request_duration_seconds_bucket{')
      .filter((l) => l.includes(labels))
      .map((l) => /le="([^"]+)"/.exec(l)?.[1]);
    expect(les).toEqual([
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
    expect(samples(text, `http_request_duration_seconds_count{${labels}}`)).toEqual([
      `http_request_duration_seconds_count{${labels}} 1`,
    ]);
    const sum = Number(
      samples(text, `http_request_duration_seconds_sum{${labels}}`)[0]?.split(' ')[1],
    );
    // A request served in memory takes well under a second; milliseconds would read as thousands.
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(1);
  });

  it('exposes the default process metrics', async () => {
    const { app } = appWithMetrics();
    const text = (await app.inject('/metrics')).body;
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_active_handles',
      'nodejs_active_requests',
      'nodejs_active_resources',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    // Only their *_total twins are dropped (gauges named like counters fail promtool).
    expect(text).not.toMatch(/^# TYPE nodejs_active_\w+_total /m);
  });

  it.skipIf(!promtool.available)('serves output that passes promtool check metrics', async () => {
    const { app } = appWithMetrics({ defaultLabels: { service: 'test-svc' } });
    await app.inject('/users/1');
    await app.inject('/boom');
    await app.inject('/nowhere');
    const text = (await app.inject('/metrics')).body;
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    if (check.error) throw check.error;
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('adds no series for 10,000 distinct unknown paths', async () => {
    const { app, metrics } = appWithMetrics({ defaultMetrics: false });
    await app.inject('/unknown/0');
    const before = samples(await metrics.registry.metrics(), 'http_');
    for (let i = 1; i <= 10_000; i++) await app.inject(`/unknown/${i}?q=${i}`);
    const after = samples(await metrics.registry.metrics(), 'http_');
    expect(after.length).toBe(before.length);
    expect(after).toContain(
      'http_requests_total{method="GET",route="unmatched",status_code="404"} 10001',
    );
  });

  it('leaves the metrics route out of the OpenAPI document unless documented is set', async () => {
    const hidden = appWithMetrics();
    expect(Object.keys((await hidden.app.openapi()).paths ?? {})).not.toContain('/metrics');
    const shown = appWithMetrics({ documented: true });
    expect(Object.keys((await shown.app.openapi()).paths ?? {})).toContain('/metrics');
  });

  it('serves at a configured path, under the prefix of the group it is used on', async () => {
    const { app } = testApp();
    app.group('/internal').use(prometheus({ path: '/prom', defaultMetrics: false }));
    expect((await app.inject('/internal/prom')).statusCode).toBe(200);
    expect((await app.inject('/metrics')).statusCode).toBe(404);
  });

  it('keeps two apps in one process apart, each with its own registry', async () => {
    const a = appWithMetrics();
    const b = appWithMetrics();
    await a.app.inject('/users/1');
    await a.app.inject('/users/1');
    await b.app.inject('/users/1');
    const count = (text: string) =>
      samples(text, 'http_requests_total{method="GET",route="/users/:id"')[0]?.split(' ')[1];
    expect(count((await a.app.inject('/metrics')).body)).toBe('2');
    expect(count((await b.app.inject('/metrics')).body)).toBe('1');
  });

  it('puts a prefix on every metric name', async () => {
    const { app } = appWithMetrics({ prefix: 'svc_' });
    await app.inject('/users/1');
    const names = samples((await app.inject('/metrics')).body, '# TYPE ').map(
      (l) => l.split(' ')[2],
    );
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) expect(name).toMatch(/^svc_/);
  });

  it('rejects a path that does not start with a slash, naming it', () => {
    expect(() => prometheus({ path: 'metrics' })).toThrow(
      /path should start with '\/', instead got metrics/,
    );
  });
});
