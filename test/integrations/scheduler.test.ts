import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.js';
import { scheduler } from '../../src/integrations/scheduler/index.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';
import { testApp } from '../app/helpers.js';

/** A JSON logger whose entries can be awaited. */
function watchedLogger() {
  const entries: { level: string; message: string }[] = [];
  const waiters: { test: (m: string) => boolean; resolve: () => void }[] = [];
  const logger = newLoggerWithFormat(false, LogFormat.JSON).withWriter({
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (!line) continue;
        const entry = JSON.parse(line) as { level: string; message: string };
        entries.push(entry);
        for (const w of waiters.splice(0)) {
          if (w.test(entry.message)) w.resolve();
          else waiters.push(w);
        }
      }
    },
  });
  const next = (pattern: RegExp) =>
    new Promise<void>((resolve) => waiters.push({ test: (m) => pattern.test(m), resolve }));
  return { logger, entries, next };
}

/** A promise with its resolve function outside. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('keelson/scheduler', () => {
  it('is started by listen(), never overlaps a run, and aborts the running job at shutdown', async () => {
    const { logger, next } = watchedLogger();
    const app = new App({ serviceName: 'jobs', port: 0, host: '127.0.0.1', logger });
    const jobs = scheduler({ logger });
    const started = deferred();
    let runs = 0;
    let reason: unknown;
    jobs.add({
      name: 'every-second',
      schedule: '* * * * * *',
      async handler(signal) {
        runs++;
        started.resolve();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        reason = signal.reason;
      },
    });
    app.registerScheduler(jobs);
    const skipped = next(/^job every-second still running: tick skipped$/);
    const listening = app.listen();
    await started.promise;
    await skipped; // the next second's tick came while the first run was still going
    expect(runs).toBe(1);
    expect(jobs.status()[0]).toMatchObject({ running: true, runs: 0, lastRun: expect.any(Date) });
    expect(await app.close()).toBe(true);
    await listening;
    expect(String(reason)).toMatch(/shutting down/);
    expect(jobs.status()[0]).toMatchObject({ running: false, runs: 1, nextRun: null });
  });

  it('logs a job that throws with its name, runs the others, and reports it in /health', async () => {
    const { logger, entries } = watchedLogger();
    const { app } = testApp();
    const jobs = scheduler({ logger });
    let broken = true;
    let goodRuns = 0;
    jobs
      .add({
        name: 'flaky',
        schedule: '0 * * * *',
        handler() {
          if (broken) throw new Error('the store is down');
        },
      })
      .add({ name: 'good', schedule: '0 * * * *', handler: () => void goodRuns++ });
    app.registerScheduler(jobs).registerHealthChecker(jobs.healthChecker());
    expect(await jobs.runNow('flaky')).toBe(true);
    expect(await jobs.runNow('good')).toBe(true);
    expect(goodRuns).toBe(1);
    const warn = entries.find((e) => e.level === 'warn');
    expect(warn?.message).toMatch(/^job flaky failed: Error: the store is down\n\s+at /);
    const warned = await app.inject('/health');
    expect(warned.statusCode).toBe(200);
    expect(warned.json()).toMatchObject({
      status: 'UP',
      checks: { scheduler: 'UP: job flaky failed: the store is down' },
    });
    broken = false;
    await jobs.runNow('flaky');
    const up = await app.inject('/health');
    expect(up.statusCode).toBe(200);
    expect(up.json().checks).toEqual({ scheduler: 'UP' });
  });

  it('turns /health 503 for a failed job only when failOn names it', async () => {
    const jobs = scheduler({ logger: watchedLogger().logger });
    jobs
      .add({
        name: 'billing',
        schedule: '0 * * * *',
        handler: () => Promise.reject(new Error('no')),
      })
      .add({ name: 'cleanup', schedule: '0 * * * *', handler() {} });
    await jobs.runNow('billing');
    const statusWith = async (failOn: 'none' | 'any' | string[]) => {
      const { app } = testApp();
      app.registerHealthChecker(jobs.healthChecker({ name: 'jobs', failOn }));
      const res = await app.inject('/health');
      return [res.statusCode, res.json().checks.jobs];
    };
    expect(await statusWith('none')).toEqual([200, 'UP: job billing failed: no']);
    expect(await statusWith(['cleanup'])).toEqual([200, 'UP: job billing failed: no']);
    expect(await statusWith(['billing'])).toEqual([503, 'DOWN: job billing failed: no']);
    expect(await statusWith('any')).toEqual([503, 'DOWN: job billing failed: no']);
  });

  it('registers itself and its health checker as a module, logging to the app logger', async () => {
    const { app, lines } = testApp();
    const jobs = scheduler();
    jobs.add({
      name: 'broken',
      schedule: '0 * * * *',
      handler: () => Promise.reject(new Error('x')),
    });
    app.use(jobs);
    await jobs.runNow('broken');
    const warn = lines.map((l) => JSON.parse(l) as { level: string; message: string });
    expect(warn.find((e) => e.level === 'warn')?.message).toMatch(/^job broken failed: Error: x/);
    expect((await app.inject('/health')).json().checks).toEqual({
      scheduler: 'UP: job broken failed: x',
    });
    expect(await app.close()).toBe(true);
  });

  it('skips runNow while the previous run of the same job is going', async () => {
    const jobs = scheduler({ logger: watchedLogger().logger });
    const gate = deferred();
    let runs = 0;
    jobs.add({
      name: 'slow',
      schedule: '*/5 * * * *',
      async handler() {
        runs++;
        await gate.promise;
      },
    });
    const first = jobs.runNow('slow');
    expect(await jobs.runNow('slow')).toBe(false);
    gate.resolve();
    expect(await first).toBe(true);
    expect(runs).toBe(1);
    await jobs.stop(AbortSignal.abort());
  });

  it('waits in stop() for running jobs until its signal aborts, naming the ones left', async () => {
    const { logger, entries } = watchedLogger();
    const jobs = scheduler({ logger });
    const stubbornStarted = deferred();
    const politeStarted = deferred();
    let politeDone = false;
    jobs
      .add({
        name: 'stubborn',
        schedule: '0 0 * * *',
        handler: () => {
          stubbornStarted.resolve();
          return new Promise<void>(() => {}); // ignores its signal
        },
      })
      .add({
        name: 'polite',
        schedule: '0 0 * * *',
        async handler(signal) {
          politeStarted.resolve();
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          politeDone = true;
        },
      });
    void jobs.runNow('stubborn');
    void jobs.runNow('polite');
    await Promise.all([stubbornStarted.promise, politeStarted.promise]);
    const deadline = new AbortController();
    const stopping = jobs.stop(deadline.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(politeDone).toBe(true);
    deadline.abort();
    await stopping;
    expect(entries.at(-1)).toMatchObject({
      level: 'warn',
      message: 'jobs still running when the shutdown deadline passed: stubborn',
    });
    expect(() => jobs.add({ name: 'late', schedule: '* * * * *', handler() {} })).toThrow(
      /after stop/,
    );
  });

  it('reads 5- and 6-field expressions in the time zone of the job or the scheduler', () => {
    const jobs = scheduler({ timezone: 'Asia/Tokyo', logger: watchedLogger().logger });
    jobs.add({ name: 'tokyo-9am', schedule: '0 9 * * *', handler() {} }).add({
      name: 'lisbon-9am',
      schedule: '0 0 9 * * *',
      timezone: 'Europe/Lisbon',
      handler() {},
    });
    jobs.start();
    const [tokyo, lisbon] = jobs.status();
    // 09:00 in Tokyo (UTC+9, no daylight saving) is always 00:00 UTC.
    expect(tokyo?.nextRun?.toISOString()).toMatch(/T00:00:00\.000Z$/);
    // 09:00 in Lisbon is 08:00 or 09:00 UTC, depending on daylight saving.
    expect(lisbon?.nextRun?.toISOString()).toMatch(/T0[89]:00:00\.000Z$/);
    void jobs.stop(AbortSignal.abort());
  });

  it('rejects a bad job at add(), naming it', async () => {
    const jobs = scheduler({ logger: watchedLogger().logger });
    jobs.add({ name: 'a', schedule: '* * * * *', handler() {} });
    expect(() => jobs.add({ name: 'a', schedule: '* * * * *', handler() {} })).toThrow(
      'scheduler: a job named "a" is already added',
    );
    expect(() => jobs.add({ name: 'b', schedule: 'every day', handler() {} })).toThrow(
      /^scheduler: job "b": invalid schedule "every day": /,
    );
    expect(() =>
      jobs.add({ name: 'c', schedule: '* * * * *', timezone: 'Mars/Olympus', handler() {} }),
    ).toThrow(/^scheduler: job "c": invalid schedule "\* \* \* \* \*" in Mars\/Olympus: /);
    expect(() => jobs.add({ name: '', schedule: '* * * * *', handler() {} })).toThrow(
      /name should be a non-empty string/,
    );
    await expect(jobs.runNow('zzz')).rejects.toThrow(
      'scheduler: no job named "zzz"; the jobs are: a',
    );
  });

  it('reports when each job last ran, null before its first run', async () => {
    const jobs = scheduler({
      logger: newLoggerWithFormat(false, LogFormat.JSON).withWriter({ write() {} }),
    });
    jobs.add({ name: 'once', schedule: '0 3 * * *', handler() {} });
    expect(jobs.status()[0]!.lastRun).toBeNull();
    const before = Date.now();
    await jobs.runNow('once');
    const lastRun = jobs.status()[0]!.lastRun;
    expect(lastRun?.getTime()).toBeGreaterThanOrEqual(before);
    expect(lastRun!.getTime()).toBeLessThanOrEqual(Date.now());
  });
});
