import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prometheus } from '../../src/integrations/prometheus/index.js';
import { PayloadError, queue } from '../../src/integrations/queue/index.js';
import { memoryLogger, testApp } from '../app/helpers.js';
import { freePort, redisTool } from '../support/redis.js';
import { redisQueues } from './redis-queues.js';

const Email = z.object({ to: z.email(), attempt: z.number().int().default(0) });

/** A promise with its resolve function outside. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe.skipIf(!redisTool.available)('keelson/queue on a real Redis', () => {
  const redis = redisQueues('emails', Email);
  const make = () => redis.make().q;

  it('validates the payload on add, naming the bad field, and enqueues nothing then', async () => {
    const q = make();
    const err = await q.add({ to: 'not an email' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayloadError);
    expect((err as PayloadError).message).toMatch(
      /^queue "emails-\d+": the payload did not pass validation: payload\.to: /,
    );
    expect(await q.queue.count()).toBe(0);
  });

  it('runs jobs with the parsed payload, concurrency at once, and counts them in /metrics', async () => {
    const { app } = testApp();
    app.use(prometheus({ defaultMetrics: false }));
    const q = make();
    app.use(q);
    let active = 0;
    let peak = 0;
    const seen: unknown[] = [];
    const all = deferred();
    q.process(
      async (data, job) => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 30));
        seen.push({ ...data, attempt: job.attempt });
        active--;
        if (seen.length === 4) all.resolve();
      },
      { concurrency: 2 },
    );
    for (const to of ['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io']) await q.add({ to });
    await all.promise;
    expect(peak).toBe(2);
    expect(seen).toContainEqual({ to: 'a@x.io', attempt: 1 });
    const text = (await app.inject('/metrics')).body;
    await expect
      .poll(async () => (await app.inject('/metrics')).body)
      .toContain(`jobs_total{queue="${q.name}",job="${q.name}",status="completed"} 4`);
    expect(text).toContain('# TYPE job_duration_seconds histogram');
  });

  it('retries a failing job with backoff, and runs a job id only once', async () => {
    const q = make();
    const tries: number[] = [];
    const done = deferred();
    q.process(async (_data, job) => {
      tries.push(job.attempt);
      if (job.attempt < 3) throw new Error(`try ${job.attempt} failed`);
      done.resolve();
    });
    const id = await q.add(
      { to: 'a@x.io' },
      { jobId: 'welcome-1', attempts: 3, backoff: { type: 'fixed', delayMs: 20 } },
    );
    const again = await q.add({ to: 'a@x.io' }, { jobId: 'welcome-1', attempts: 3 });
    expect(again).toBe(id);
    await done.promise;
    expect(tries).toEqual([1, 2, 3]);
  });

  it('holds a delayed job back for its delay', async () => {
    const q = make();
    const ran = deferred<number>();
    q.process(() => ran.resolve(Date.now()));
    const added = Date.now();
    await q.add({ to: 'a@x.io' }, { delayMs: 400 });
    expect((await ran.promise) - added).toBeGreaterThanOrEqual(390);
  });

  it('runs a repeatable job through a job scheduler', async () => {
    const q = make();
    let runs = 0;
    const twice = deferred();
    q.process((data) => {
      expect(data.to).toBe('ops@x.io');
      if (++runs === 2) twice.resolve();
    });
    await q.schedule('digest', { everyMs: 100 }, { to: 'ops@x.io' });
    await twice.promise;
    await q.unschedule('digest');
    await expect(q.schedule('bad', { everyMs: 100 }, { to: 'nope' })).rejects.toThrow(PayloadError);
  });

  it('reports Redis in /health, and at shutdown waits for the running job', async () => {
    const { app } = testApp();
    const q = make();
    app.use(q);
    const started = deferred();
    const gate = deferred();
    let finished = false;
    q.process(async () => {
      started.resolve();
      await gate.promise;
      finished = true;
    });
    const health = await app.inject('/health');
    expect(health.json().checks).toEqual({ [`queue:${q.name}`]: 'UP' });
    await q.add({ to: 'a@x.io' });
    await started.promise;
    const closing = app.close();
    setTimeout(() => gate.resolve(), 100);
    expect(await closing).toBe(true);
    expect(finished).toBe(true);
  });

  it('reports DOWN in /health while Redis cannot be reached, failing readiness only when asked to', async () => {
    const { app } = testApp({ health: { timeoutMs: 500 } });
    const q = queue(redis.name(), {
      connection: { host: '127.0.0.1', port: await freePort(), lazyConnect: true },
      payload: Email,
      logger: memoryLogger().logger,
    });
    q.queue.on('error', () => {});
    app.registerHealthChecker(q.healthChecker());
    app.registerHealthChecker(q.healthChecker('critical', { affects: 'readiness' }));
    const res = await app.inject('/health/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json().checks[`queue:${q.name}`]).toMatch(/^DOWN: /);
    expect(res.json().checks.critical).toMatch(/^DOWN: /);
    const alone = testApp({ health: { timeoutMs: 500 } }).app;
    alone.use(q); // the module's own checker is report-only: a shared Redis down fails no replica
    const reported = await alone.inject('/health/ready');
    expect(reported.statusCode).toBe(200);
    expect(reported.json().checks[`queue:${q.name}`]).toMatch(/^DOWN: /);
    await q.close(AbortSignal.abort());
  });

  it('gives up a job still running at the shutdown deadline, aborting its signal', async () => {
    const { app } = testApp({ shutdownTimeoutMs: 300 });
    const { q, lines } = redis.make();
    app.use(q);
    const started = deferred();
    const aborted = deferred<unknown>();
    q.process(async (_data, job) => {
      started.resolve();
      await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
      aborted.resolve(job.signal.reason);
    });
    const id = await q.add({ to: 'a@x.io' });
    await started.promise;
    expect(await app.close()).toBe(false); // the hook was still running at the deadline
    expect(String(await aborted.promise)).toMatch(/shutdown deadline/);
    expect(lines.some((l) => l.includes('jobs still running at the shutdown deadline'))).toBe(true);
    // It returned once aborted, its work not done: back in the queue, not completed.
    const again = redis.track(queue(q.name, { connection: redis.connection(), payload: Email }));
    expect(await again.queue.getJobState(id)).toBe('waiting');
  });

  it('puts a job cut off at the shutdown deadline back in the queue, even when its handler throws on the abort', async () => {
    const { app } = testApp({ shutdownTimeoutMs: 300 });
    const { q, lines } = redis.make();
    app.use(q);
    const started = deferred();
    q.process(async (_data, job) => {
      started.resolve();
      await new Promise((_, reject) => job.signal.addEventListener('abort', reject));
    }); // one attempt, the default
    const id = await q.add({ to: 'a@x.io' });
    await started.promise;
    expect(await app.close()).toBe(false);
    const again = redis.track(queue(q.name, { connection: redis.connection(), payload: Email }));
    expect(await again.queue.getJobState(id)).toBe('waiting');
    const ran = deferred<number>();
    again.process(async (_data, job) => ran.resolve(job.attempt));
    expect(await ran.promise).toBe(1);
    expect(lines.some((l) => /given up and put back in the queue/.test(l))).toBe(true);
    expect(lines.some((l) => / failed: /.test(l))).toBe(false);
  });
});
