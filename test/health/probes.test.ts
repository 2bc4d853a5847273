import { describe, expect, it } from 'vitest';
import type { HealthChecker } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

const checker = (name: string, check: HealthChecker['check']): HealthChecker => ({
  name: () => name,
  check,
});

describe('GET /health/live', () => {
  it('answers 200 without running any checker, even when a checker fails', async () => {
    const { app } = testApp();
    let runs = 0;
    app.registerHealthChecker(
      checker('db', () => {
        runs++;
        throw new Error('down');
      }),
    );
    const res = await app.inject('/health/live');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'UP' });
    expect(runs).toBe(0);
  });
});

describe('GET /health/ready', () => {
  it('runs the checkers like /health: 200 when all pass, 503 naming the one that fails', async () => {
    const { app } = testApp({ serviceName: 'users-api' });
    let healthy = true;
    app.registerHealthChecker(
      checker('db', () => {
        if (!healthy) throw new Error('connection refused');
      }),
    );
    expect((await app.inject('/health/ready')).json()).toEqual({
      status: 'UP',
      service: 'users-api',
      version: '1.0.0',
      checks: { db: 'UP' },
    });
    healthy = false;
    const res = await app.inject('/health/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({ db: 'DOWN: connection refused' });
  });

  it('answers 503 from the moment shutdown begins, while liveness stays 200', async () => {
    // The drain delay keeps the app serving after shutdown has begun.
    const { app } = testApp({ drainDelayMs: 200 });
    let runs = 0;
    app.registerHealthChecker(checker('db', () => void runs++));
    expect((await app.inject('/health/ready')).statusCode).toBe(200);
    const closing = app.close();
    for (const path of ['/health/ready', '/health']) {
      const res = await app.inject(path);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'DOWN',
        checks: { shutdown: 'DOWN: the service is shutting down' },
      });
    }
    expect((await app.inject('/health/live')).statusCode).toBe(200);
    expect(runs).toBe(1);
    await closing;
  });

  it('is documented with its 200 and 503 bodies', async () => {
    const { app } = testApp();
    const doc = await app.openapi();
    const op = doc.paths['/health/ready']?.get as Record<string, unknown> | undefined;
    expect(op).toMatchObject({ operationId: 'getHealthReady', tags: ['health'] });
    expect(Object.keys(op?.responses as object)).toEqual(expect.arrayContaining(['200', '503']));
    expect(String(op?.description)).toMatch(/503/);
  });
});

describe('a storm of health probes', () => {
  it('shares one run of the checkers among concurrent requests', async () => {
    const { app } = testApp();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    app.registerHealthChecker(
      checker('db', async () => {
        runs++;
        await gate;
      }),
    );
    await app.ready();
    const answers = Array.from({ length: 50 }, (_, i) =>
      app.inject(i % 2 ? '/health' : '/health/ready'),
    );
    await new Promise((r) => setImmediate(r));
    release();
    const done = await Promise.all(answers);
    expect(done.every((r) => r.statusCode === 200)).toBe(true);
    expect(runs).toBe(1);
    // The run is over: the next request runs the checkers again (no cache by default).
    await app.inject('/health');
    expect(runs).toBe(2);
  });

  it('reuses a finished result for health.cacheMs, then runs the checkers again', async () => {
    const { app } = testApp({ health: { cacheMs: 150 } });
    let runs = 0;
    app.registerHealthChecker(checker('db', () => void runs++));
    for (let i = 0; i < 5; i++) await app.inject('/health/ready');
    expect(runs).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    await app.inject('/health/ready');
    expect(runs).toBe(2);
  });
});
