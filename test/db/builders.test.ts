import { eq } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pg-proxy';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Generated,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { get } from '../../src/index.js';
import { memoryLogger, testApp } from '../app/helpers.js';
import { engines } from './engines.js';

// --- The README's example: Kysely over `db` ------------------------------------------------

/** A Kysely dialect whose queries run through `db.query`, so they join `db.transaction()`. */
function keelsonDialect(db: Database): Dialect {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      return { rows: await db.query<R>(query.sql, query.parameters) };
    },
    streamQuery() {
      throw new Error('streaming is not supported over db.query');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {
      throw new Error('use db.transaction(() => …) around Kysely queries');
    },
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    // The app closes `db` at shutdown.
    destroy: async () => {},
  };
  return {
    createDriver: () => driver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
  };
}

interface Tables {
  users: { id: Generated<number>; name: string; admin: boolean };
  scores: { user_id: number; points: number | null };
}

// --- The README's example: Drizzle over `db` -----------------------------------------------

const users = pgTable('users', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  admin: boolean('admin').notNull().default(false),
});
const scores = pgTable('scores', {
  userId: integer('user_id').notNull(),
  points: integer('points'),
});

/** Drizzle's pg-proxy on `db.query`: it wants rows as arrays, in column order, for selects. */
function drizzleOver(db: Database) {
  return drizzle(async (sql, params, method) => {
    const rows = await db.query(sql, params);
    return { rows: method === 'all' ? rows.map((row) => Object.values(row)) : rows };
  });
}

// -------------------------------------------------------------------------------------------

const SCHEMA = [
  'create table users (id serial primary key, name text not null, admin boolean not null default false)',
  'create table scores (user_id int not null references users (id), points int)',
];

describe.each(engines)('query builders over db, on $name', (engine) => {
  async function fresh() {
    const db = await engine.fresh({ logger: memoryLogger().logger });
    for (const statement of SCHEMA) await db.query(statement);
    return {
      db,
      kysely: new Kysely<Tables>({ dialect: keelsonDialect(db) }),
      orm: drizzleOver(db),
    };
  }

  it('Kysely inserts, selects and updates through db.query', async () => {
    const { kysely } = await fresh();
    const ada = await kysely
      .insertInto('users')
      .values({ name: "Ada'; drop table users; --", admin: true })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    expect(ada).toEqual({ id: 1, name: "Ada'; drop table users; --" });
    await kysely.insertInto('users').values({ name: 'Bob', admin: false }).execute();
    await kysely.updateTable('users').set({ admin: true }).where('name', '=', 'Bob').execute();
    const admins = await kysely
      .selectFrom('users')
      .select(['name'])
      .where('admin', '=', true)
      .orderBy('id')
      .execute();
    expect(admins.map((u) => u.name)).toEqual(["Ada'; drop table users; --", 'Bob']);
  });

  it('Drizzle inserts, selects, joins and updates through db.query', async () => {
    const { orm } = await fresh();
    const [ada] = await orm.insert(users).values({ name: 'Ada', admin: true }).returning();
    expect(ada).toEqual({ id: 1, name: 'Ada', admin: true });
    await orm.insert(scores).values([
      { userId: 1, points: 10 },
      { userId: 1, points: 32 },
    ]);
    await orm.update(users).set({ name: 'Ada L.' }).where(eq(users.id, 1));
    const rows = await orm
      .select({ name: users.name, points: scores.points })
      .from(users)
      .innerJoin(scores, eq(scores.userId, users.id))
      .orderBy(scores.points);
    expect(rows).toEqual([
      { name: 'Ada L.', points: 10 },
      { name: 'Ada L.', points: 32 },
    ]);
    expect(await orm.select().from(users).where(eq(users.name, 'nobody'))).toEqual([]);
  });

  it('both share db.transaction(): what one wrote the other reads, and a throw rolls both back', async () => {
    const { db, kysely, orm } = await fresh();
    await expect(
      db.transaction(async () => {
        await kysely.insertInto('users').values({ name: 'from kysely', admin: false }).execute();
        await orm.insert(users).values({ name: 'from drizzle' });
        const seen = await orm.select({ name: users.name }).from(users).orderBy(users.id);
        expect(seen.map((r) => r.name)).toEqual(['from kysely', 'from drizzle']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await kysely.selectFrom('users').selectAll().execute()).toEqual([]);

    await db.transaction(async () => {
      const [kept] = await orm.insert(users).values({ name: 'kept' }).returning({ id: users.id });
      await kysely.insertInto('scores').values({ user_id: kept!.id, points: 1 }).execute();
    });
    expect(await orm.select({ name: users.name }).from(users)).toEqual([{ name: 'kept' }]);
    await expect(kysely.transaction().execute(async () => {})).rejects.toThrow(
      'use db.transaction(',
    );
  });

  it('a builder error is a DatabaseError, answered as problem+json in a route of db.transactional()', async () => {
    const { db, kysely } = await fresh();
    const { app } = testApp();
    app.use(db);
    app.addRoutes(
      get('/twice', { middleware: [db.transactional()] }, async () => {
        await kysely.insertInto('users').values({ id: 7, name: 'a', admin: false }).execute();
        await kysely.insertInto('users').values({ id: 7, name: 'b', admin: false }).execute();
        return { ok: true };
      }),
    );
    const res = await app.inject('/twice');
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await db.query('select count(*)::int as n from users')).toEqual([{ n: 0 }]);
  });
});
