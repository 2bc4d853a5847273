import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { idempotency } from '../../src/idempotency/index.js';
import { type App, type Middleware, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { engines } from '../db/engines.js';
import { idempotencyCases, type Orders } from './cases.js';

let tablesMade = 0;

/** A new orders table in `db`. */
async function withOrders(db: Database): Promise<Orders> {
  const table = db.sql.id(`orders_${++tablesMade}`);
  await db.sql`create table ${table} (id serial primary key, item text not null)`;
  return {
    insert: (item) =>
      db.sql<{
        id: number;
        item: string;
      }>`insert into ${table} (item) values (${item}) returning id, item`.one(),
    count: async () =>
      Number((await db.sql<{ n: string }>`select count(*) as n from ${table}`.one()).n),
  };
}

const tables = (db: Database) =>
  db.sql<{
    name: string;
  }>`select tablename as name from pg_tables where tablename = 'keelson_idempotency'`;

describe.each(engines)('idempotency on the database store, $name', (engine) => {
  // One database per block (not app.use'd, so closing an app leaves it open), a table per case.
  describe('on a db.transactional() route', () => {
    let db: Database;
    beforeAll(async () => {
      db = await engine.fresh();
    }, 60_000);
    afterAll(() => db.close());
    idempotencyCases(() => ({
      prepare: () => withOrders(db),
      middleware: (options = {}) => [db.transactional(), idempotency({ store: db, ...options })],
      // PGlite has one connection: the second request waits for the first's transaction.
      seesRunning: engine.name === 'postgres',
    }));
  });

  describe('on a route without a transaction', () => {
    let db: Database;
    beforeAll(async () => {
      db = await engine.fresh();
    }, 60_000);
    afterAll(() => db.close());
    idempotencyCases(() => ({
      prepare: () => withOrders(db),
      middleware: (options = {}) => [idempotency({ store: db, ...options })],
      seesRunning: true,
    }));
  });

  describe('with the handler’s transaction', () => {
    const apps: App[] = [];
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    });

    async function setup(inside: Middleware[]) {
      const db = await engine.fresh();
      const { app } = testApp();
      apps.push(app);
      app.use(db);
      const orders = await withOrders(db);
      const store = idempotency({ store: db });
      app.addRoutes(
        post('/orders', { middleware: [db.transactional(), ...inside, store] }, async (c) => {
          return c.created(await orders.insert('tea'));
        }),
      );
      const send = (key: string) =>
        app.inject({
          method: 'POST',
          url: '/orders',
          payload: {},
          headers: { 'idempotency-key': key },
        });
      return { db, orders, send };
    }

    it('commits the kept answer with the handler’s writes, or neither', async () => {
      let fail = true;
      // Between the transaction and idempotency: fails after the answer was kept, once.
      const failAfter: Middleware = async (_c, next) => {
        const answer = await next();
        if (fail) {
          fail = false;
          throw new Error('fails after the handler');
        }
        return answer;
      };
      const { db, orders, send } = await setup([failAfter]);
      const key = randomUUID();
      expect((await send(key)).statusCode).toBe(500);
      expect(await orders.count()).toBe(0);
      expect(await db.sql`select key from keelson_idempotency`).toEqual([]);
      const ok = await send(key);
      expect([ok.statusCode, ok.json()]).toEqual([201, { id: 2, item: 'tea' }]);
      const replay = await send(key);
      expect([replay.statusCode, replay.body]).toEqual([201, ok.body]);
      expect(await orders.count()).toBe(1);
    });

    it('creates its table at first use, outside the request’s transaction', async () => {
      // Between the transaction and idempotency: the request's transaction always rolls back.
      const failAfter: Middleware = async (_c, next) => {
        await next();
        throw new Error('rolled back');
      };
      const { db, send } = await setup([failAfter]);
      expect(await tables(db)).toEqual([]);
      expect((await send(randomUUID())).statusCode).toBe(500);
      expect(await tables(db)).toEqual([{ name: 'keelson_idempotency' }]);
    });

    it('replays an answer until ttlMs has passed, then runs the request again', async () => {
      const db = await engine.fresh();
      const { app } = testApp();
      apps.push(app);
      app.use(db);
      const orders = await withOrders(db);
      app.addRoutes(
        post('/orders', { middleware: [idempotency({ store: db, ttlMs: 60_000 })] }, async (c) =>
          c.created(await orders.insert('tea')),
        ),
      );
      const key = randomUUID();
      const send = () =>
        app.inject({
          method: 'POST',
          url: '/orders',
          payload: {},
          headers: { 'idempotency-key': key },
        });
      expect((await send()).json()).toEqual({ id: 1, item: 'tea' });
      expect((await send()).json()).toEqual({ id: 1, item: 'tea' });
      await db.sql`update keelson_idempotency set expires_at = now() - interval '1 second'`;
      const fresh = await send();
      expect([fresh.json(), fresh.headers['idempotent-replayed']]).toEqual([
        { id: 2, item: 'tea' },
        undefined,
      ]);
    });
  });
});
