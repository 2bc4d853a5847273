import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { type JobLock, redisLock, scheduler } from '../../src/integrations/scheduler/index.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';
import { freePort, redisTool, startRedis } from '../support/redis.js';

interface Entry {
  level: string;
  message: string;
}

/** A JSON logger whose entries can be awaited. */
function watchedLogger() {
  const entries: Entry[] = [];
  const waiters: { test: RegExp; resolve: (e: Entry) => void }[] = [];
  const logger = newLoggerWithFormat(false, LogFormat.JSON).withWriter({
    write(chunk: string) {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as Entry;
        entries.push(entry);
        for (const w of waiters.splice(0)) {
          if (w.test.test(entry.message)) w.resolve(entry);
          else waiters.push(w);
        }
      }
    },
  });
  const next = (test: RegExp) => new Promise<Entry>((resolve) => waiters.push({ test, resolve }));
  return { logger, entries, next };
}

/** A lock shared in memory, as replicas in one process would share Redis. */
function memoryLock(): JobLock & { claims: string[] } {
  const claims: string[] = [];
  return {
    claims,
    async acquire(job, scheduledAt) {
      const key = `${job}@${scheduledAt.toISOString()}`;
      if (claims.includes(key)) return false;
      claims.push(key);
      return true;
    },
  };
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A started scheduler with one every-second job; resolves each run's scheduled time. */
function replica(
  lock: JobLock,
  logger = watchedLogger().logger,
  lockTimeoutMs = 2000,
  ran: (at: Date) => unknown = () => {},
) {
  const runs: Date[] = [];
  const begun = new AbortController();
  const jobs = scheduler({ lock, logger, lockTimeoutMs });
  jobs.add({
    name: 'tick',
    schedule: '* * * * * *',
    handler(_signal, { scheduledAt }) {
      runs.push(scheduledAt);
      return ran(scheduledAt) as Promise<void> | undefined;
    },
  });
  jobs.start({ logger, shutdownBegun: begun.signal });
  stops.push(() => jobs.stop(AbortSignal.abort()));
  return { jobs, runs, begun };
}

describe('keelson/scheduler with a lock', () => {
  it('runs each tick on the one replica that claims it, telling the handler its scheduled time', async () => {
    const lock = memoryLock();
    let count = 0;
    let twoRuns!: () => void;
    const done = new Promise<void>((resolve) => {
      twoRuns = resolve;
    });
    const ran = () => {
      if (++count === 2) twoRuns();
    };
    const a = replica(lock, undefined, 2000, ran);
    const b = replica(lock, undefined, 2000, ran);
    await done;
    const all = [...a.runs, ...b.runs].map((d) => d.toISOString()).sort();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(new Set(all).size).toBe(all.length);
    for (const at of all) expect(at).toMatch(/\.000Z$/); // the scheduled second, not the start time
    expect(lock.claims.map((c) => c.split('@')[1]).sort()).toEqual(all);
  });

  it('skips the tick and warns when the lock fails or does not answer in time, never running it unlocked', async () => {
    const { logger, next } = watchedLogger();
    const failing = replica({ acquire: () => Promise.reject(new Error('ECONNREFUSED')) }, logger);
    const hanging = replica({ acquire: () => new Promise<boolean>(() => {}) }, logger, 100);
    const refused = await next(/lock could not be acquired: ECONNREFUSED/);
    const late = await next(/lock could not be acquired: no answer within 100 ms/);
    expect(refused.level).toBe('warn');
    expect(refused.message).toMatch(/^job tick: tick of \S+\.000Z skipped: /);
    expect(late.level).toBe('warn');
    expect([...failing.runs, ...hanging.runs]).toEqual([]);
  });

  it('starts no run once shutdown has begun, even for a tick whose claim was under way', async () => {
    let claimed!: (ok: boolean) => void;
    let asked!: () => void;
    const askedP = new Promise<void>((r) => {
      asked = r;
    });
    const r = replica({
      acquire: () => {
        asked();
        return new Promise<boolean>((resolve) => {
          claimed = resolve;
        });
      },
    });
    await askedP;
    r.begun.abort();
    claimed(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.runs).toEqual([]);
    expect(r.jobs.status()[0]?.nextRun).toBeNull();
  });

  it('warns when a claimed tick cannot run because the previous late tick is still running', async () => {
    // Redis back after an outage: two queued claims answer at once, both for this replica.
    const claims: ((ok: boolean) => void)[] = [];
    let twoAsked!: () => void;
    const asked = new Promise<void>((r) => {
      twoAsked = r;
    });
    const lock: JobLock = {
      acquire: () =>
        new Promise<boolean>((resolve) => {
          if (claims.push(resolve) === 2) twoAsked();
        }),
    };
    const { logger, next } = watchedLogger();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const r = replica(lock, logger, 10_000, () => held);
    await asked;
    claims[0]?.(true);
    claims[1]?.(true);
    const skipped = await next(/: tick of .* skipped/);
    release();
    expect(skipped.level).toBe('warn');
    expect(skipped.message).toMatch(
      /^job tick: tick of \S+\.000Z skipped: the previous run was still going when it was claimed$/,
    );
    expect(r.runs).toHaveLength(1);
  });

  it('rejects a lock without acquire, and a timeout or TTL that is not positive, naming it', () => {
    expect(() => scheduler({ lock: {} as JobLock })).toThrow(
      'scheduler: lock should have an acquire(job, scheduledAt, ttlMs) method',
    );
    expect(() => scheduler({ lockTimeoutMs: 0 })).toThrow(
      'scheduler: lockTimeoutMs should be a positive number, instead got 0',
    );
    expect(() => scheduler({ lockTtlMs: Number.NaN })).toThrow(/lockTtlMs should be a positive/);
  });

  it('with redisLock, skips and warns while Redis cannot be reached', async () => {
    const port = await freePort(); // nothing listens there
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    redis.on('error', () => {});
    stops.push(async () => redis.disconnect());
    const { logger, next } = watchedLogger();
    const r = replica(redisLock(redis), logger, 500);
    const skipped = await next(/skipped: the lock could not be acquired/);
    expect(skipped.level).toBe('warn');
    expect(r.runs).toEqual([]);
  });
});

describe.skipIf(!redisTool.available)('redisLock on a real Redis', () => {
  it('claims a tick once, under a key naming the job and its scheduled time, for ttlMs', async () => {
    const server = await startRedis();
    const redis = new Redis(server.url);
    try {
      const lock = redisLock(redis, { prefix: 'svc:' });
      const at = new Date('2026-11-23T10:00:00.000Z');
      expect(await lock.acquire('invoice', at, 5000)).toBe(true);
      expect(await redisLock(redis, { prefix: 'svc:' }).acquire('invoice', at, 5000)).toBe(false);
      expect(await lock.acquire('invoice', new Date('2026-11-23T11:00:00.000Z'), 5000)).toBe(true);
      expect(await lock.acquire('other', at, 5000)).toBe(true);
      const ttl = await redis.pttl('svc:invoice:2026-11-23T10:00:00.000Z');
      expect(ttl).toBeGreaterThan(4000);
      expect(ttl).toBeLessThanOrEqual(5000);
    } finally {
      redis.disconnect();
      await server.stop();
    }
  });
});
