import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, type ServiceProcess, startLogProcess } from '../support/log-process.js';
import { type RedisServer, redisTool, startRedis } from '../support/redis.js';

const fixture = new URL('./fixtures/scheduler-replica.ts', import.meta.url).pathname;

describe.skipIf(!redisTool.available)('keelson/scheduler across replicas on a real Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    killAll();
    await server?.stop();
  });

  it('runs each scheduled second exactly once across 3 replicas, and loses none when one is killed', async () => {
    const subscriber = new Redis(server.url);
    const client = new Redis(server.url);
    try {
      const seen: string[] = [];
      const waiters: { count: number; resolve: () => void }[] = [];
      await subscriber.subscribe('ran');
      subscriber.on('message', (_channel, run: string) => {
        seen.push(run);
        for (const w of waiters.splice(0)) {
          if (seen.length >= w.count) w.resolve();
          else waiters.push(w);
        }
      });
      const runsReach = (count: number) =>
        new Promise<void>((resolve) => waiters.push({ count, resolve }));

      const replicas: ServiceProcess[] = ['a', 'b', 'c'].map((name) =>
        startLogProcess(fixture, { REDIS_URL: server.url, REPLICA: name }),
      );
      await Promise.all(replicas.map((r) => r.port));
      const allUp = seen.length;
      await runsReach(allUp + 2);
      // Kill the replica that took the most ticks so far (the lock may favour one), so the
      // others must take over. Half-way between two ticks, so it is not inside a run.
      const names = ['a', 'b', 'c'];
      const taken = (n: string) => seen.slice(allUp).filter((r) => r.endsWith(`|${n}`)).length;
      const victim = names.reduce((best, n) => (taken(n) > taken(best) ? n : best));
      const killed = replicas[names.indexOf(victim)]!;
      const ms = Date.now() % 1000;
      await new Promise((r) => setTimeout(r, ms < 500 ? 500 - ms : 1500 - ms));
      killed.child.kill('SIGKILL');
      await killed.exit;
      const afterKill = seen.length;
      await runsReach(afterKill + 3);
      const survivors = replicas.filter((r) => r !== killed);
      for (const r of survivors) r.child.kill('SIGTERM');
      const exits = await Promise.all(survivors.map((r) => r.exit));
      expect(exits.map((e) => e.code)).toEqual([0, 0]);

      const runs = await client.lrange('runs', 0, -1);
      const times = runs.map((r) => r.split('|')[0]!);
      // Exactly once: no scheduled time ran twice.
      expect(new Set(times).size).toBe(times.length);
      // None lost: every second from the first run with all replicas up to the last is there.
      const seconds = [...new Set(times)].map((t) => Date.parse(t) / 1000).sort((x, y) => x - y);
      const first = Date.parse(seen[allUp]!.split('|')[0]!) / 1000;
      const last = seconds.at(-1)!;
      const expected = Array.from({ length: last - first + 1 }, (_, i) => first + i);
      expect(seconds.filter((s) => s >= first)).toEqual(expected);
      expect(expected.length).toBeGreaterThanOrEqual(5);
      // More than one replica took ticks, and the killed one took none after it died.
      expect(new Set(runs.map((r) => r.split('|')[1])).size).toBeGreaterThan(1);
      expect(seen.slice(afterKill).filter((r) => r.endsWith(`|${victim}`))).toEqual([]);
    } finally {
      subscriber.disconnect();
      client.disconnect();
    }
  }, 20_000);
});
