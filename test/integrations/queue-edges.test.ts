import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JobMetric } from '../../src/contracts.js';
import { queue } from '../../src/integrations/queue/index.js';
import { memoryLogger, testApp } from '../app/helpers.js';
import { freePort, redisTool } from '../support/redis.js';
import { redisQueues } from './redis-queues.js';

// keelson/queue at its edges: bad arguments, a failing job, a failing collector, the options
// passed on to BullMQ.

const Task = z.object({ n: z.number() });

describe('keelson/queue arguments', () => {
  it('refuses a bad name, payload, handler or concurrency, naming the queue', async () => {
    const connection = { host: '127.0.0.1', port: await freePort(), lazyConnect: true };
    const bad = (name: unknown, payload: unknown) => () =>
      queue(name as string, { connection, payload: payload as typeof Task });
    expect(bad('', Task)).toThrow(
      new TypeError('queue: name should be a non-empty string, instead got ""'),
    );
    expect(bad(5, Task)).toThrow(
      new TypeError('queue: name should be a non-empty string, instead got 5'),
    );
    expect(bad('q', undefined)).toThrow(
      new TypeError('queue "q": payload should be a Standard Schema (zod, valibot, …)'),
    );
    expect(bad('q', { '~standard': {} })).toThrow(/payload should be a Standard Schema/);
    expect(() => queue('q', undefined as never)).toThrow(/payload should be a Standard Schema/);
    const q = queue('q', { connection, payload: Task, logger: memoryLogger().logger });
    q.queue.on('error', () => {});
    expect(() => q.process('nope' as never)).toThrow(
      new TypeError('queue "q": handler should be a function, instead got string'),
    );
    for (const concurrency of [0, -1, 1.5]) {
      expect(() => q.process(() => {}, { concurrency })).toThrow(
        new RangeError(
          `queue "q": concurrency should be a positive integer, instead got ${concurrency}`,
        ),
      );
    }
    await q.close(AbortSignal.abort());
  });
});

describe.skipIf(!redisTool.available)('keelson/queue on a real Redis, at its edges', () => {
  const { make } = redisQueues('tasks', Task);

  it('logs a failed job with its id and error, and records each try with its duration', async () => {
    const { app } = testApp();
    const metrics: JobMetric[] = [];
    app.setMetricsCollector({ recordRequest: () => {}, recordJob: (m) => metrics.push(m) });
    const { q, lines } = make();
    app.use(q);
    let tries = 0;
    q.process(async () => {
      tries++;
      await new Promise((r) => setTimeout(r, 40));
      if (tries === 1) throw new Error('disk full');
    });
    const id = await q.add(
      { n: 1 },
      { jobId: 'job-7', attempts: 2, backoff: { type: 'fixed', delayMs: 10 } },
    );
    expect(id).toBe('job-7');
    await expect.poll(() => metrics.length).toBe(2);
    expect(metrics.map((m) => m.status)).toEqual(['failed', 'completed']);
    expect(metrics[0]).toMatchObject({ queue: q.name, job: q.name });
    for (const m of metrics) {
      expect(m.durationMs).toBeGreaterThanOrEqual(35);
      expect(m.durationMs).toBeLessThan(5_000);
    }
    expect(
      lines.filter((l) => l.includes(`queue ${q.name}: job job-7 failed: Error: disk full`)),
    ).toHaveLength(1);
  });

  it('logs a metrics collector that throws, and goes on', async () => {
    const { app } = testApp();
    app.setMetricsCollector({
      recordRequest: () => {},
      recordJob: () => {
        throw new Error('collector broke');
      },
    });
    const { q, lines } = make();
    app.use(q);
    let ran = 0;
    q.process(() => {
      ran++;
    });
    await q.add({ n: 1 });
    await q.add({ n: 2 });
    await expect
      .poll(
        () =>
          lines.filter((l) => l.includes('metrics collector failed: Error: collector broke'))
            .length,
      )
      .toBe(2);
    expect(ran).toBe(2);
  });

  it('gives BullMQ the default backoff, the prefix and a cron schedule with its time zone', async () => {
    const { q } = make({ prefix: 'kq' });
    const id = await q.add({ n: 1 }, { attempts: 2 });
    const job = await q.queue.getJob(id);
    expect(job?.opts).toMatchObject({ attempts: 2, backoff: { type: 'exponential', delay: 1000 } });
    expect(job?.opts.delay ?? 0).toBe(0);
    // ioredis underneath BullMQ's client interface.
    const client = (await q.queue.backend.client) as unknown as {
      keys(pattern: string): Promise<string[]>;
    };
    expect((await client.keys(`kq:${q.name}:*`)).length).toBeGreaterThan(0);
    expect(await client.keys(`bull:${q.name}:*`)).toEqual([]);
    await q.schedule('nightly', { pattern: '0 3 * * *', tz: 'Asia/Kolkata' }, { n: 2 });
    await q.schedule('hourly', { pattern: '0 * * * *' }, { n: 3 });
    const schedulers = await q.queue.getJobSchedulers();
    const byKey = Object.fromEntries(schedulers.map((s) => [s.key, s]));
    expect(byKey.nightly).toMatchObject({ pattern: '0 3 * * *', tz: 'Asia/Kolkata' });
    expect(byKey.hourly).toMatchObject({ pattern: '0 * * * *' });
    expect(byKey.hourly?.tz).toBeUndefined();
  });
});
