import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/database.js';
import {
  type IdempotencyStoreOption,
  idempotency,
  redisIdempotencyStore,
} from '../../src/idempotency/index.js';
import { type App, type Middleware, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { type PostgresServer, postgresTool, startPostgres } from '../support/postgres.js';
import { type RedisServer, redisTool, startRedis } from '../support/redis.js';
import { serve } from '../support/serve.js';
import { addFigures } from './figures.js';

// Two replicas of one service on real sockets, each with its own connections to the shared
// store, take bursts of 50 concurrent retries of one POST per key: every key must make exactly
// one order, every answer be the order (first or replayed) or a 409, never a 5xx.

const KEYS = 20;
const RETRIES = 50;

const apps: App[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const close of closers.splice(0).reverse()) await close();
});

interface Burst {
  statuses: number[];
  replayed: number;
  bodies: Set<string>;
}

async function burst(ports: number[], key: string): Promise<Burst> {
  const answers = await Promise.all(
    Array.from({ length: RETRIES }, async (_, i) => {
      const res = await fetch(`http://127.0.0.1:${ports[i % ports.length]}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ item: 'tea' }),
      });
      return {
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        body: await res.text(),
      };
    }),
  );
  const created = answers.filter((a) => a.status === 201);
  return {
    statuses: answers.map((a) => a.status),
    replayed: created.filter((a) => a.replayed === 'true').length,
    bodies: new Set(created.map((a) => a.body)),
  };
}

/** Runs the bursts against replicas made by `replica`, and checks and reports them. */
async function run(
  meta: { figures?: object },
  replicas: (() => Promise<{ middleware: Middleware[]; insert: () => Promise<unknown> }>)[],
  count: () => Promise<number>,
) {
  const ports: number[] = [];
  for (const make of replicas) {
    const { app } = testApp();
    apps.push(app);
    const { middleware, insert } = await make();
    app.addRoutes(post('/orders', { middleware }, async (c) => c.created(await insert())));
    ports.push(await serve(app));
  }
  let serverErrors = 0;
  let failures = 0;
  const started = performance.now();
  for (let k = 0; k < KEYS; k++) {
    const before = await count();
    const b = await burst(ports, randomUUID());
    const made = (await count()) - before;
    serverErrors += b.statuses.filter((s) => s >= 500).length;
    failures += b.statuses.filter((s) => s !== 201 && s !== 409).length + (made === 1 ? 0 : 1);
    failures += b.bodies.size === 1 ? 0 : 1;
    expect(b.statuses.filter((s) => s === 201).length - b.replayed).toBe(1);
  }
  const ms = performance.now() - started;
  addFigures(meta as never, { requestsSent: KEYS * RETRIES, serverErrors, failures });
  expect({ serverErrors, failures }).toEqual({ serverErrors: 0, failures: 0 });
  expect(ms).toBeLessThan(60_000);
}

describe.skipIf(!postgresTool.available)('idempotency on PostgreSQL, two replicas', () => {
  let server: PostgresServer;

  it(`makes one order per key from ${KEYS} bursts of ${RETRIES} concurrent retries`, async ({
    task,
  }) => {
    server = await startPostgres();
    closers.push(() => server.stop());
    const url = await server.createDatabase();
    const setup = new Database({ url });
    await setup.query('create table orders (id serial primary key, item text not null)');
    closers.push(() => setup.close());
    const replica = async () => {
      const db = new Database({ url });
      closers.push(() => db.close());
      const store: IdempotencyStoreOption = db;
      return {
        middleware: [db.transactional(), idempotency({ store })],
        insert: async () => {
          const row = await db.sql`insert into orders (item) values ('tea') returning id`.one();
          await db.query('select pg_sleep(0.01)'); // the work takes a moment: retries overlap it
          return row;
        },
      };
    };
    const count = async () =>
      Number((await setup.sql<{ n: string }>`select count(*) as n from orders`.one()).n);
    await run(task.meta, [replica, replica], count);
  });
});

describe.skipIf(!redisTool.available)('idempotency on Redis, two replicas', () => {
  let server: RedisServer;

  it(`makes one order per key from ${KEYS} bursts of ${RETRIES} concurrent retries`, async ({
    task,
  }) => {
    server = await startRedis();
    closers.push(() => server.stop());
    let orders = 0;
    const replica = async () => {
      const redis = new Redis(server.port, '127.0.0.1');
      closers.push(async () => redis.disconnect());
      await new Promise((r) => redis.once('ready', r));
      return {
        middleware: [idempotency({ store: redisIdempotencyStore(redis) })],
        insert: async () => {
          await new Promise((r) => setImmediate(r));
          return { id: ++orders };
        },
      };
    };
    await run(task.meta, [replica, replica], async () => orders);
  });
});
