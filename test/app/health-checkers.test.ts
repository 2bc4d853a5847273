import { describe, expect, it } from 'vitest';
import type { HealthChecker } from '../../src/index.js';
import { testApp } from './helpers.js';

describe('health checkers', () => {
  it("aborts a checker's signal when its timeout passes, and reports it DOWN", async () => {
    let aborted: unknown;
    const slow: HealthChecker = {
      name: () => 'slow',
      check: (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve();
          });
        }),
    };
    const { app } = testApp({ health: { timeoutMs: 50 } });
    app.registerHealthChecker(slow);
    const res = await app.inject('/health');
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.slow).toMatch(/^DOWN: /);
    expect(aborted).toBeDefined();
  });

  it('refuses a checker without name() or check()', () => {
    const { app } = testApp();
    for (const missing of [undefined, null]) {
      expect(() => app.registerHealthChecker(missing as unknown as HealthChecker)).toThrow(
        /name\(\) and check\(signal\) methods/,
      );
    }
    expect(() =>
      app.registerHealthChecker({ name: () => 'x' } as unknown as HealthChecker),
    ).toThrow(/name\(\) and check\(signal\) methods/);
    expect(() =>
      app.registerHealthChecker({ check: () => {} } as unknown as HealthChecker),
    ).toThrow(/name\(\) and check\(signal\) methods/);
  });

  it('refuses a checker whose name() is empty or not a string', () => {
    const { app } = testApp();
    for (const name of ['', 7, undefined]) {
      expect(() =>
        app.registerHealthChecker({
          name: () => name,
          check: () => {},
        } as unknown as HealthChecker),
      ).toThrow(/non-empty string/);
    }
  });

  it('documents /health and /health/live with a summary and a description', async () => {
    const { app } = testApp();
    const doc = await app.openapi();
    for (const path of ['/health', '/health/live']) {
      const op = doc.paths[path]?.get as { summary?: string; description?: string } | undefined;
      expect(op?.summary, path).toMatch(/\w{3}/);
      expect(op?.description, path).toMatch(/\w{3}/);
    }
  });
});
