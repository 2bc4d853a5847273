import { describe, expect, it } from 'vitest';
import { App, get } from '../../src/index.js';
import { prometheus } from '../../src/integrations/prometheus/index.js';
import { memoryLogger } from '../app/helpers.js';

// keelson/prometheus at its edges: a bad path, job metrics in seconds with their labels, the
// process metrics only when asked, and the documented route.

describe('prometheus options and job metrics', () => {
  it('refuses a path that is not a string starting with /', () => {
    for (const path of [5, 'metrics', '']) {
      expect(() => prometheus({ path: path as string, defaultMetrics: false })).toThrow(
        `prometheus: path should start with '/', instead got ${String(path)}`,
      );
    }
  });

  it('counts calls of deprecated operations by operationId, and no others', async () => {
    const metrics = prometheus({ defaultMetrics: false });
    const app = new App({ serviceName: 'svc', logger: memoryLogger().logger });
    app.use(metrics);
    app
      .group('/v1', { deprecated: true })
      .addRoutes(get('/users', { operationId: 'listUsersV1' }, () => []));
    app.addRoutes(get('/v2/users', () => []));
    for (const url of ['/v1/users', '/v1/users', '/v2/users']) await app.inject(url);
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_deprecated_requests_total{operation="listUsersV1"} 2');
    expect(text).not.toMatch(/http_deprecated_requests_total\{operation="getV2Users"\}/);
  });

  it('observes database queries in seconds, by operation and status', async () => {
    const metrics = prometheus({ defaultMetrics: false });
    metrics.recordQuery({ operation: 'select', durationMs: 3, failed: false });
    metrics.recordQuery({ operation: 'insert', durationMs: 250, failed: true });
    const text = await metrics.registry.metrics();
    expect(text).toContain('db_query_duration_seconds_count{operation="select",status="ok"} 1');
    expect(text).toContain('db_query_duration_seconds_sum{operation="insert",status="error"} 0.25');
  });

  it('counts job tries and observes their duration in seconds, by queue, job and status', async () => {
    const metrics = prometheus({ defaultMetrics: false });
    metrics.recordJob({ queue: 'mail', job: 'welcome', status: 'completed', durationMs: 2500 });
    metrics.recordJob({ queue: 'mail', job: 'welcome', status: 'failed', durationMs: 40 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('jobs_total{queue="mail",job="welcome",status="completed"} 1');
    expect(text).toContain('jobs_total{queue="mail",job="welcome",status="failed"} 1');
    expect(text).toContain(
      'job_duration_seconds_sum{queue="mail",job="welcome",status="completed"} 2.5',
    );
    // 10 ms to 10 min buckets: 2.5 s falls in the 5 s one, not the 1 s one.
    expect(text).toContain(
      'job_duration_seconds_bucket{le="1",queue="mail",job="welcome",status="completed"} 0',
    );
    expect(text).toContain(
      'job_duration_seconds_bucket{le="5",queue="mail",job="welcome",status="completed"} 1',
    );
    expect(text).toContain(
      'job_duration_seconds_bucket{le="600",queue="mail",job="welcome",status="failed"} 1',
    );
    expect(text).not.toContain('process_cpu');
    expect(await prometheus().registry.metrics()).toContain('process_cpu_user_seconds_total');
  });

  it('documents its route only when asked, as getMetrics under the metrics tag', async () => {
    const { logger } = memoryLogger();
    const app = new App({ serviceName: 'm', env: 'development', logger });
    app.use(prometheus({ defaultMetrics: false, documented: true, path: '/stats' }));
    const op = (await app.openapi()).paths['/stats']?.get;
    expect(op).toMatchObject({
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description: 'The metrics of the service in the Prometheus text exposition format.',
      tags: ['metrics'],
    });
    const res = await app.inject('/stats');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    const hidden = new App({ serviceName: 'm', env: 'development' });
    hidden.use(prometheus({ defaultMetrics: false }));
    expect((await hidden.openapi()).paths['/metrics']).toBeUndefined();
  });
});
