import { describe, expect, it } from 'vitest';
import type { HealthChecker } from '../../src/index.js';
import { testApp } from './helpers.js';

const checker = (name: string, check: HealthChecker['check']): HealthChecker => ({
  name: () => name,
  check,
});

describe('GET /health', () => {
  it('answers 200 UP with an empty checks object when no checker is registered', async () => {
    const { app } = testApp({ serviceName: 'users-api' });
    const res = await app.inject('/health');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      status: 'UP',
      service: 'users-api',
      version: '1.0.0',
      checks: {},
    });
  });

  it('takes version from config.version, else from docs.version', async () => {
    const { app: a } = testApp({ version: '2.3.4' });
    expect((await a.inject('/health')).json().version).toBe('2.3.4');
    const { app: b } = testApp({ docs: { version: '9.9.9' } });
    expect((await b.inject('/health')).json().version).toBe('9.9.9');
  });

  it('answers 200 when every checker passes', async () => {
    const { app } = testApp();
    app.registerHealthChecker(checker('db', async () => {}));
    app.registerHealthChecker(checker('cache', () => {}));
    const res = await app.inject('/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'UP', checks: { db: 'UP', cache: 'UP' } });
  });

  it('answers 503 with DOWN: <message> for a failing checker, whatever way it fails', async () => {
    const { app } = testApp();
    app.registerHealthChecker(checker('ok', () => {}));
    app.registerHealthChecker(
      checker('rejects', () => Promise.reject(new Error('connection refused'))),
    );
    app.registerHealthChecker(
      checker('throws-sync', () => {
        throw new Error('sync boom');
      }),
    );
    app.registerHealthChecker(checker('rejects-string', () => Promise.reject('plain string')));
    app.registerHealthChecker(checker('rejects-undefined', () => Promise.reject(undefined)));
    const res = await app.inject('/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'DOWN',
      service: 'test-svc',
      version: '1.0.0',
      checks: {
        ok: 'UP',
        rejects: 'DOWN: connection refused',
        'throws-sync': 'DOWN: sync boom',
        'rejects-string': 'DOWN: plain string',
        'rejects-undefined': 'DOWN: undefined',
      },
    });
  });

  it('marks a checker that passes its timeout DOWN without waiting for it, and aborts its signal', async () => {
    const { app } = testApp({ health: { timeoutMs: 50 } });
    let aborted: unknown;
    app.registerHealthChecker(
      checker('hangs', (signal) => {
        signal.addEventListener('abort', () => {
          aborted = signal.reason;
        });
        return new Promise(() => {});
      }),
    );
    const res = await app.inject('/health');
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({ hangs: 'DOWN: timed out after 50 ms' });
    expect(aborted).toBeInstanceOf(Error);
  });

  it('runs the checkers in parallel', async () => {
    // Each checker waits for the other to start: run one after the other, both would time out.
    const { app } = testApp({ health: { timeoutMs: 2000 } });
    let releaseA!: () => void;
    let releaseB!: () => void;
    const aStarted = new Promise<void>((r) => {
      releaseB = r;
    });
    const bStarted = new Promise<void>((r) => {
      releaseA = r;
    });
    app.registerHealthChecker(
      checker('a', async () => {
        releaseB();
        await bStarted;
      }),
    );
    app.registerHealthChecker(
      checker('b', async () => {
        releaseA();
        await aStarted;
      }),
    );
    const res = await app.inject('/health');
    expect(res.json().checks).toEqual({ a: 'UP', b: 'UP' });
  });

  it('rejects two checkers with the same name', () => {
    const { app } = testApp();
    app.registerHealthChecker(checker('db', () => {}));
    expect(() => app.registerHealthChecker(checker('db', () => {}))).toThrow(
      /"db" is already registered/,
    );
  });

  it('is not registered when disableHealth is true', async () => {
    const { app } = testApp({ disableHealth: true });
    expect((await app.inject('/health')).statusCode).toBe(404);
    expect((await app.inject('/health/live')).statusCode).toBe(404);
    expect((await app.inject('/health/ready')).statusCode).toBe(404);
  });
});

describe('GET /health/live', () => {
  it('answers 200 UP without running any checker', async () => {
    const { app } = testApp();
    let ran = false;
    app.registerHealthChecker(
      checker('db', () => {
        ran = true;
        throw new Error('down');
      }),
    );
    const res = await app.inject('/health/live');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'UP' });
    expect(ran).toBe(false);
  });
});
