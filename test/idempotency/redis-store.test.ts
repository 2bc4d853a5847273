import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { idempotency, redisIdempotencyStore } from '../../src/idempotency/index.js';
import { type App, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { type RedisServer, redisTool, startRedis } from '../support/redis.js';
import { idempotencyCases, memoryOrders } from './cases.js';

describe.skipIf(!redisTool.available)('idempotency on the Redis store', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const client = async (port = server.port) => {
    const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    redis.on('error', () => {}); // reconnect errors are expected once a server is gone
    clients.push(redis);
    if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
    return redis;
  };
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = await client();
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await server?.stop();
  });

  idempotencyCases(() => {
    const store = redisIdempotencyStore(redis);
    return {
      prepare: async () => memoryOrders(),
      middleware: (options = {}) => [idempotency({ store, ...options })],
      seesRunning: true,
    };
  });

  describe('across replicas', () => {
    const apps: App[] = [];
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    });

    async function replica(orders: ReturnType<typeof memoryOrders>, own: Redis) {
      const { app } = testApp();
      apps.push(app);
      const store = redisIdempotencyStore(own, { prefix: 'replicas:' });
      app.addRoutes(
        post('/orders', { middleware: [idempotency({ store, ttlMs: 60_000 })] }, async (c) =>
          c.created(await orders.insert('tea')),
        ),
      );
      return (key: string) =>
        app.inject({
          method: 'POST',
          url: '/orders',
          payload: {},
          headers: { 'idempotency-key': key },
        });
    }

    it('replays on one replica the answer another gave, and keeps it for ttlMs', async () => {
      const orders = memoryOrders();
      const one = await replica(orders, await client());
      const two = await replica(orders, await client());
      const key = randomUUID();
      const first = await one(key);
      const again = await two(key);
      expect([again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([
        201,
        first.body,
        'true',
      ]);
      expect(await orders.count()).toBe(1);
      const ttl = await redis.pttl(`replicas:${key}`);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('answers 503 with Retry-After, running nothing, while Redis is unreachable', async () => {
      const own = await startRedis();
      const orders = memoryOrders();
      const send = await replica(orders, await client(own.port));
      await own.stop();
      const res = await send(randomUUID());
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(await orders.count()).toBe(0);
    });
  });
});
