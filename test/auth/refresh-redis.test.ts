import { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jwt, redisRefreshStore } from '../../src/auth/index.js';
import { type RedisServer, redisTool, startRedis } from '../support/redis.js';
import { SECRET } from './support.js';

// Two replicas, each with its own guard and client, share one login through Redis: a token
// rotated on one is used up on the other, and a replay on either ends the login on both.

const Claims = z.object({ sub: z.string() });

describe.skipIf(!redisTool.available)('redisRefreshStore with a real redis-server', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server?.stop();
  });

  function replica() {
    const redis = new Redis(server.port, '127.0.0.1');
    clients.push(redis);
    const store = redisRefreshStore(redis, { prefix: 'test:' });
    return jwt({ secret: SECRET, claims: Claims }).refreshTokens({ store, ttl: 60 });
  }

  it('uses a token up on every replica, and a replay on one ends the login on all', async () => {
    const a = replica();
    const b = replica();
    const first = await a.issue({ sub: 'u1' });

    const second = await b.rotate(first.refreshToken);
    await expect(a.rotate(first.refreshToken)).rejects.toMatchObject({ statusCode: 401 });
    await expect(b.rotate(second.refreshToken)).rejects.toMatchObject({ statusCode: 401 });
    const { fam } = decodeJwt(first.refreshToken) as { fam: string };
    const ttl = await clients[0]!.ttl(`test:ended:${fam}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(61);
  });

  it('refuses a client without call()', () => {
    expect(() => redisRefreshStore({} as never)).toThrow(/call\(\)/);
  });
});
