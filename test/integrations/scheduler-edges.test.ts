import { describe, expect, it } from 'vitest';
import { scheduler } from '../../src/integrations/scheduler/index.js';
import { memoryLogger } from '../app/helpers.js';

// keelson/scheduler at its edges: bad jobs, runs outside the schedule, the health checker's
// words, status before and after start, and a stop that leaves a job behind.

const EVERY_SECOND = '* * * * * *';
const NEVER_SOON = '0 0 1 1 *';

describe('the scheduler at its edges', () => {
  it('refuses bad jobs naming them, and runNow on unknown or stopped jobs', async () => {
    const jobs = scheduler();
    const bad: [unknown, string][] = [
      [undefined, `scheduler: a job's name should be a non-empty string, instead got undefined`],
      [{ name: 5 }, `scheduler: a job's name should be a non-empty string, instead got 5`],
      [
        { name: 'x', schedule: NEVER_SOON },
        'scheduler: job "x": handler should be a function, instead got undefined',
      ],
      [
        { name: 'x', schedule: NEVER_SOON, handler: () => {}, timezone: 'Mars/Olympus' },
        'scheduler: job "x": invalid schedule "0 0 1 1 *" in Mars/Olympus: ',
      ],
      [
        { name: 'x', schedule: 'nope', handler: () => {} },
        'scheduler: job "x": invalid schedule "nope": ',
      ],
    ];
    for (const [job, message] of bad) expect(() => jobs.add(job as never)).toThrow(message);
    await expect(jobs.runNow('ghost')).rejects.toThrow(
      'scheduler: no job named "ghost"; the jobs are: none',
    );
    jobs.add({ name: 'a', schedule: NEVER_SOON, handler: () => {} });
    jobs.add({ name: 'b', schedule: NEVER_SOON, handler: () => {} });
    await expect(jobs.runNow('ghost')).rejects.toThrow('the jobs are: a, b');
    await jobs.stop(AbortSignal.abort());
    await expect(jobs.runNow('a')).rejects.toThrow('scheduler: cannot run "a" after stop()');
    expect(() => jobs.add({ name: 'c', schedule: NEVER_SOON, handler: () => {} })).toThrow(
      'scheduler: cannot add a job after stop()',
    );
  });

  it('shows next runs only while started, and arms a job added after start', async () => {
    const jobs = scheduler({ timezone: 'UTC' });
    jobs.add({ name: 'before', schedule: NEVER_SOON, handler: () => {} });
    expect(jobs.status()[0]).toMatchObject({
      name: 'before',
      nextRun: null,
      runs: 0,
      running: false,
    });
    jobs.start();
    jobs.start();
    jobs.add({ name: 'after', schedule: NEVER_SOON, handler: () => {} });
    const [before, after] = jobs.status();
    expect(before?.nextRun?.toISOString()).toMatch(/-01-01T00:00:00\.000Z$/);
    expect(after?.nextRun?.getTime()).toBe(before?.nextRun?.getTime());
    await jobs.stop(AbortSignal.abort());
    expect(jobs.status().map((s) => s.nextRun)).toEqual([null, null]);
  });

  it('does not start when the shutdown has already begun', async () => {
    let runs = 0;
    const jobs = scheduler();
    jobs.add({ name: 'tick', schedule: EVERY_SECOND, handler: () => void runs++ });
    jobs.start({ logger: memoryLogger().logger, shutdownBegun: AbortSignal.abort() });
    expect(jobs.status()[0]?.nextRun).toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    expect(runs).toBe(0);
  });

  it('runs a job now with the time it was asked for, and reports failures in health', async () => {
    const seen: Date[] = [];
    const jobs = scheduler({ logger: memoryLogger().logger });
    jobs.add({
      name: 'ok',
      schedule: NEVER_SOON,
      handler: (_signal, { scheduledAt }) => void seen.push(scheduledAt),
    });
    jobs.add({
      name: 'bad',
      schedule: NEVER_SOON,
      handler: () => {
        throw new Error('disk full');
      },
    });
    jobs.add({
      name: 'odd',
      schedule: NEVER_SOON,
      handler: () => {
        throw {
          toString() {
            throw new Error('no');
          },
        };
      },
    });
    const before = Date.now();
    expect(await jobs.runNow('ok')).toBe(true);
    expect(seen[0]!.getTime()).toBeGreaterThanOrEqual(before);
    const health = jobs.healthChecker();
    expect(await health.check(AbortSignal.timeout(1000))).toBeUndefined();
    await jobs.runNow('bad');
    await jobs.runNow('odd');
    expect(await health.check(AbortSignal.timeout(1000))).toBe(
      'job bad failed: disk full; job odd failed: an unprintable error',
    );
    const critical = jobs.healthChecker({ failOn: ['odd'], name: 'cron' });
    expect(critical.name()).toBe('cron');
    expect(() => critical.check(AbortSignal.timeout(1000))).toThrow(
      'job bad failed: disk full; job odd failed: an unprintable error',
    );
    expect(() => jobs.healthChecker({ failOn: 'any' }).check(AbortSignal.timeout(1000))).toThrow();
    expect(jobs.healthChecker({ failOn: ['other'] }).check(AbortSignal.timeout(1000))).toContain(
      'job bad failed',
    );
    await jobs.stop(AbortSignal.abort());
  });

  it('names the jobs still running when the stop deadline passes', async () => {
    const { logger, lines } = memoryLogger();
    const jobs = scheduler({ logger });
    let release!: () => void;
    jobs.add({
      name: 'slow',
      schedule: NEVER_SOON,
      handler: () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    });
    jobs.add({ name: 'idle', schedule: NEVER_SOON, handler: () => {} });
    jobs.add({ name: 'stuck', schedule: NEVER_SOON, handler: () => new Promise(() => {}) });
    const running = jobs.runNow('slow');
    void jobs.runNow('stuck');
    expect(jobs.status().map((s) => s.running)).toEqual([true, false, true]);
    await jobs.stop(AbortSignal.timeout(50));
    expect(lines.filter((l) => l.includes('jobs still running'))).toEqual([
      expect.stringContaining('jobs still running when the shutdown deadline passed: slow, stuck'),
    ]);
    release();
    await running;
  });
});
