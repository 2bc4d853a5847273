import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../src/db/database.js';
import { DatabaseError } from '../../src/db/errors.js';
import { badRequest, post, unauthorized } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { engines } from './engines.js';

const SERIALIZATION_FAILURE = `do $$ begin raise exception 'clash' using errcode = '40001'; end $$`;

describe.each(engines)('transactions on $name', (engine) => {
  let db: Database;
  const count = async (table: string) =>
    Number((await db.query<{ n: string }>(`select count(*) as n from ${table}`))[0]!.n);
  beforeAll(async () => {
    db = await engine.fresh();
    for (const t of ['t_commit', 't_nested', 't_retry', 't_http'])
      await db.query(`create table ${t} (id serial primary key, name text unique not null)`);
  }, 60_000);
  afterAll(() => db.close());

  it('commits when the function resolves and rolls back when it throws', async () => {
    const value = await db.transaction(async () => {
      await db.sql`insert into t_commit (name) values (${'kept'})`;
      return 42;
    });
    expect(value).toBe(42);
    await expect(
      db.transaction(async () => {
        await db.sql`insert into t_commit (name) values (${'dropped'})`;
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await db.sql`select name from t_commit`).toEqual([{ name: 'kept' }]);
  });

  it('joins the transaction from code that is not passed it, and makes a nested one a savepoint', async () => {
    const insert = (name: string) => db.sql`insert into t_nested (name) values (${name})`;
    await db.transaction(async () => {
      await insert('outer');
      await db
        .transaction(async () => {
          await insert('inner');
          throw new Error('inner fails');
        })
        .catch(() => {});
      await db.transaction(() => insert('second inner'));
    });
    expect(await db.sql`select name from t_nested order by id`).toEqual([
      { name: 'outer' },
      { name: 'second inner' },
    ]);
  });

  it('retries a serialization failure up to `retries` times, then gives it up as a 503', async () => {
    let attempts = 0;
    const result = await db.transaction(
      async () => {
        attempts++;
        await db.sql`insert into t_retry (name) values (${`try ${attempts}`})`;
        if (attempts < 3) await db.query(SERIALIZATION_FAILURE);
        return attempts;
      },
      { retries: 2 },
    );
    expect(result).toBe(3);
    expect(await db.sql`select name from t_retry`).toEqual([{ name: 'try 3' }]);
    const err = await db
      .transaction(() => db.query(SERIALIZATION_FAILURE), { retries: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseError);
    expect({
      kind: (err as DatabaseError).kind,
      status: (err as DatabaseError).statusCode,
    }).toEqual({
      kind: 'serialization',
      status: 503,
    });
  });

  it('db.transactional() commits before the answer is written and rolls back when the handler throws', async () => {
    const { app, lines } = testApp();
    app.use(db);
    const seen: number[] = [];
    // Outside the transaction: runs after the handler's chain returns, before the answer is sent.
    app.use(async (_c, next) => {
      const answer = await next();
      seen.push(await count('t_http'));
      return answer;
    });
    app.addRoutes(
      post(
        '/things',
        {
          body: z.object({ name: z.string().min(1), fail: z.boolean().optional() }),
          middleware: [db.transactional()],
        },
        async (c) => {
          const row = await db.sql<{
            id: number;
          }>`insert into t_http (name) values (${c.body.name}) returning id`.one();
          if (c.body.fail) throw badRequest('changed my mind');
          return c.created(row);
        },
      ),
    );
    const ok = await app.inject({ method: 'POST', url: '/things', payload: { name: 'a' } });
    expect(ok.statusCode).toBe(201);
    expect(seen).toEqual([1]);
    const failed = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { name: 'b', fail: true },
    });
    expect(failed.statusCode).toBe(400);
    const dup = await app.inject({ method: 'POST', url: '/things', payload: { name: 'a' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(dup.body).not.toMatch(/t_http|name_key|insert/);
    expect(await count('t_http')).toBe(1);
    const entry = lines.map((l) => JSON.parse(l)).find((e) => e.status === 409);
    expect(entry.error).toMatch(/t_http_name_key/);
    expect(entry.requestId).toEqual(expect.any(String));
  });

  it('opens no transaction for a request refused before its handler queries', async () => {
    const own = await engine.fresh();
    await own.query('create table t_refused (id serial primary key, name text)');
    const { app } = testApp({ health: { timeoutMs: 800 } });
    app.use(own);
    const slowRefusal = async () => {
      await new Promise((r) => setTimeout(r, 100));
      throw unauthorized();
    };
    app.addRoutes(
      post('/refused', { middleware: [own.transactional(), slowRefusal] }, async () => {
        await own.sql`insert into t_refused (name) values ('never')`;
        return 'no';
      }),
    );
    await app.ready();
    const refused = Array.from({ length: 50 }, () =>
      app.inject({ method: 'POST', url: '/refused' }),
    );
    const health = await app.inject('/health');
    expect(health.json().checks.database).toBe('UP');
    expect((await Promise.all(refused)).map((r) => r.statusCode)).toEqual(Array(50).fill(401));
    expect(await own.sql`select * from t_refused`).toEqual([]);
    await app.close();
  });
});
