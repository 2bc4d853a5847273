import { describe, expect, it } from 'vitest';
import type { MetricsCollector } from '../../src/extend/index.js';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** What every MetricsCollector must do, run against one implementation. */
export function metricsCollectorContract(name: string, make: () => MetricsCollector): void {
  describe(`MetricsCollector contract: ${name}`, () => {
    it('records any request metric without throwing', () => {
      const mc = make();
      for (const statusCode of [200, 204, 301, 404, 422, 500, 503]) {
        mc.recordRequest({ method: 'GET', route: '/users/:id', statusCode, durationMs: 1.5 });
      }
      mc.recordRequest({ method: 'DELETE', route: 'unmatched', statusCode: 404, durationMs: 0 });
    });

    it('is told of requests by an App without a warning', async () => {
      const { app, lines } = testApp();
      app.setMetricsCollector(make());
      app.addRoutes(get('/x/:id', () => 1));
      expect((await app.inject('/x/1')).statusCode).toBe(200);
      expect((await app.inject('/nope')).statusCode).toBe(404);
      expect(lines.filter((l) => l.includes('metrics collector failed'))).toEqual([]);
    });
  });
}
