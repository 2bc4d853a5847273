import { describe, expect, it } from 'vitest';
import type { HealthChecker } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

const checker = (
  name: string,
  affects: HealthChecker['affects'],
  check: HealthChecker['check'],
): HealthChecker => ({ name: () => name, check, ...(affects ? { affects } : {}) });

const refused = () => {
  throw new Error('connection refused');
};

describe('a health checker marked for a probe', () => {
  it("shows a report-only ('none') checker that is DOWN, without failing /health or readiness", async () => {
    const { app } = testApp();
    app.registerHealthChecker(checker('redis', 'none', refused));
    app.registerHealthChecker(checker('db', undefined, () => {}));
    for (const path of ['/health', '/health/ready']) {
      const res = await app.inject(path);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'UP',
        checks: { redis: 'DOWN: connection refused', db: 'UP' },
      });
    }
    expect((await app.inject('/health/live')).json()).toEqual({ status: 'UP' });
  });

  it('fails readiness by default, and leaves liveness alone', async () => {
    const { app } = testApp();
    app.registerHealthChecker(checker('db', 'readiness', refused));
    expect((await app.inject('/health/ready')).statusCode).toBe(503);
    const live = await app.inject('/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'UP' });
  });

  it('runs only the liveness checkers on /health/live, answering 503 when one is DOWN; readiness fails too', async () => {
    const { app } = testApp();
    let runs = 0;
    let stuck = false;
    app.registerHealthChecker(
      checker('event-loop', 'liveness', () => {
        if (stuck) throw new Error('worker pool wedged');
      }),
    );
    app.registerHealthChecker(
      checker('db', 'readiness', () => {
        runs++;
      }),
    );
    const up = await app.inject('/health/live');
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'UP', checks: { 'event-loop': 'UP' } });
    stuck = true;
    const down = await app.inject('/health/live');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      status: 'DOWN',
      checks: { 'event-loop': 'DOWN: worker pool wedged' },
    });
    expect(runs).toBe(0);
    const ready = await app.inject('/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toEqual({
      'event-loop': 'DOWN: worker pool wedged',
      db: 'UP',
    });
  });

  it('refuses an affects that is not readiness, liveness or none, naming the checker', () => {
    const { app } = testApp();
    const bad = { ...checker('db', undefined, () => {}), affects: 'startup' } as unknown;
    expect(() => app.registerHealthChecker(bad as HealthChecker)).toThrow(
      `health checker "db": affects should be 'readiness', 'liveness' or 'none', instead got "startup"`,
    );
  });

  it('documents /health/live with its 503 body', async () => {
    const { app } = testApp();
    const doc = await app.openapi();
    const op = doc.paths['/health/live']?.get as { responses: Record<string, unknown> };
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});
