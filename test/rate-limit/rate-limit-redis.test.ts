import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type App, get, rateLimit, redisStore } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { type RedisServer, redisTool, startRedis } from '../support/redis.js';
import { send, serve } from '../support/serve.js';

const apps: App[] = [];
const clients: Redis[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const c of clients.splice(0)) c.disconnect();
});

function client(port: number, options: { maxRetriesPerRequest?: number } = {}): Redis {
  const redis = new Redis(port, '127.0.0.1', options);
  redis.on('error', () => {}); // reconnect errors are expected once the server is gone
  clients.push(redis);
  return redis;
}

function ready(redis: Redis): Promise<void> {
  return redis.status === 'ready' ? Promise.resolve() : new Promise((r) => redis.once('ready', r));
}

async function limitedApp(redis: Redis, timeoutMs?: number) {
  const { app, lines } = testApp();
  const store = redisStore(redis, timeoutMs ? { timeoutMs } : {});
  app.addRoutes(
    get('/r', { middleware: [rateLimit({ max: 3, windowMs: 60_000, store })] }, () => 'r'),
  );
  apps.push(app);
  return { port: await serve(app), lines };
}

describe.skipIf(!redisTool.available)('redisStore with a real redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  it('shares one limit between two apps (replicas) on the same Redis', async () => {
    const a = client(server.port);
    const b = client(server.port);
    await Promise.all([ready(a), ready(b)]);
    await a.flushall();
    const one = await limitedApp(a);
    const two = await limitedApp(b);
    const statuses: number[] = [];
    for (const port of [one.port, two.port, one.port, two.port, one.port]) {
      statuses.push((await send(port, '/r')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const last = await send(two.port, '/r');
    expect(last.headers['ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(await a.pttl('keelson:rate-limit:3/60000:127.0.0.1')).toBeGreaterThan(0);
  });

  it('lets requests through and warns when Redis goes away', async () => {
    const own = await startRedis();
    const redis = client(own.port, { maxRetriesPerRequest: 1 });
    await ready(redis);
    const { port, lines } = await limitedApp(redis);
    expect((await send(port, '/r')).status).toBe(200);
    await own.stop();
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect((await send(port, '/r')).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    const warnings = lines.filter((l) => l.includes('store failed'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn' });
  });

  it('gives up after timeoutMs and lets the request through while Redis hangs', async () => {
    const redis = client(server.port);
    const admin = client(server.port);
    await Promise.all([ready(redis), ready(admin)]);
    await admin.flushall();
    const app = await limitedApp(redis, 150);
    expect((await send(app.port, '/r')).status).toBe(200);
    // Redis stops answering every client's commands for 1 s: a hang, not a refused connection.
    await admin.call('CLIENT', 'PAUSE', '1000', 'ALL');
    const started = Date.now();
    const res = await send(app.port, '/r');
    const took = Date.now() - started;
    await admin.call('CLIENT', 'UNPAUSE');
    expect(res.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(900);
    expect(app.lines.join('\n')).toContain('redis did not answer within 150 ms');
  });
});
