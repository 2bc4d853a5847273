import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DatabaseError } from '../../src/db/errors.js';
import { KError, unprocessable } from '../../src/errors/index.js';
import { engines } from './engines.js';

describe.each(engines)('queries on $name', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.fresh({
      constraints: { members_nick_key: () => unprocessable('nick has already been taken') },
    });
    await db.query('create table teams_x (id int primary key)');
    await db.query(`create table members (
      id serial primary key,
      nick text unique not null,
      age int check (age >= 0),
      team_id int references teams_x(id)
    )`);
    await db.query('insert into teams_x (id) values (1)');
  }, 60_000);
  afterAll(() => db.close());

  it('binds every interpolation as a parameter, so injection attempts are only values', async () => {
    const evil = "x'); drop table members; --";
    await db.sql`insert into members (nick) values (${evil})`;
    const rows = await db.sql<{ nick: string }>`select nick from members where nick = ${evil}`;
    expect(rows).toEqual([{ nick: evil }]);
    const { n } = await db.sql<{ n: string }>`select count(*) as n from members`.one();
    expect(n).toBe('1');
  });

  it('composes fragments, renumbering their parameters, with join, id and empty', async () => {
    await db.sql`insert into members (nick, age) values (${'ada'}, ${36}), (${'bob'}, ${7})`;
    const byAge = (min?: number) => (min === undefined ? db.sql.empty : db.sql`and age >= ${min}`);
    const q = db.sql<{
      nick: string;
    }>`select ${db.sql.id('nick')} from members where nick <> ${'none'} ${byAge(10)} order by 1`;
    expect(q.compile()).toEqual({
      text: 'select "nick" from members where nick <> $1 and age >= $2 order by 1',
      params: ['none', 10],
    });
    expect(await q).toEqual([{ nick: 'ada' }]);
    expect(
      await db.sql`select nick from members where true ${byAge()} and nick in (${db.sql.join(['ada', 'bob'])}) order by nick`,
    ).toEqual([{ nick: 'ada' }, { nick: 'bob' }]);
    expect(() => db.sql`select ${undefined}`.compile()).toThrow(/\$1 is undefined; pass null/);
    expect(db.sql.id('a"b', 'c').compile().text).toBe('"a""b"."c"');
  });

  it('runs a query once however often it is awaited, and only when awaited', async () => {
    const q = db.sql`insert into members (nick) values (${'lazy'}) returning id`;
    const [first] = await db.sql<{
      n: string;
    }>`select count(*) as n from members where nick = 'lazy'`;
    expect(first!.n).toBe('0');
    const a = await q;
    const b = await q;
    expect(a).toBe(b);
    const [after] = await db.sql<{
      n: string;
    }>`select count(*) as n from members where nick = 'lazy'`;
    expect(after!.n).toBe('1');
  });

  it('one() and maybeOne() give a row, 404 for none, an error for several', async () => {
    expect(await db.sql`select 1 as x`.one()).toEqual({ x: 1 });
    expect(await db.sql`select 1 as x where false`.maybeOne()).toBeUndefined();
    const none = await db.sql`select 1 where false`.one().catch((e: unknown) => e);
    expect(none).toBeInstanceOf(KError);
    expect((none as KError).statusCode).toBe(404);
    await expect(db.sql`select generate_series(1, 2)`.one()).rejects.toThrow(/returned 2 rows/);
    await expect(db.sql`select generate_series(1, 2)`.maybeOne()).rejects.toThrow(
      /returned 2 rows/,
    );
  });

  it.each([
    ['a duplicate', 'insert into teams_x (id) values (5), (5)', 'unique', 409, 'CONFLICT'],
    [
      'a missing reference',
      `insert into members (nick, team_id) values ('t', 99)`,
      'foreign_key',
      409,
      'CONFLICT',
    ],
    [
      'a missing value',
      `insert into members (nick) values (null)`,
      'not_null',
      422,
      'VALIDATION_FAILED',
    ],
    [
      'a refused value',
      `insert into members (nick, age) values ('neg', -1)`,
      'check',
      422,
      'VALIDATION_FAILED',
    ],
    ['unreadable input', `select 'abc'::int`, 'invalid_input', 400, 'BAD_REQUEST'],
    ['a broken statement', `select from nowhere_table`, 'other', 500, 'INTERNAL'],
  ])(
    'maps %s to a DatabaseError that names no SQL to the client',
    async (_, text, kind, status, code) => {
      const err = (await db.query(text).catch((e: unknown) => e)) as DatabaseError;
      expect(err).toBeInstanceOf(DatabaseError);
      expect(err).toBeInstanceOf(KError);
      expect({ kind: err.kind, status: err.statusCode, code: err.code }).toEqual({
        kind,
        status,
        code,
      });
      expect(err.message).not.toMatch(/members|nick|insert|select|nowhere/);
      expect((err.cause as Error).message).toContain(text.replace(/\s+/g, ' '));
    },
  );

  it('names the constraint, table and column where PostgreSQL gives them', async () => {
    const err = (await db
      .query(`insert into members (nick) values (null)`)
      .catch((e: unknown) => e)) as DatabaseError;
    expect({ table: err.table, column: err.column, sqlState: err.sqlState }).toEqual({
      table: 'members',
      column: 'nick',
      sqlState: '23502',
    });
    const fk = (await db
      .query(`insert into members (nick, team_id) values ('fk', 99)`)
      .catch((e: unknown) => e)) as DatabaseError;
    expect(fk.constraint).toBe('members_team_id_fkey');
  });

  it('maps a named constraint to the error the application chose, keeping the DatabaseError as its cause', async () => {
    await db.sql`insert into members (nick) values (${'taken'})`;
    const err = (await db.sql`insert into members (nick) values (${'taken'})`.catch(
      (e: unknown) => e,
    )) as KError;
    expect(err).not.toBeInstanceOf(DatabaseError);
    expect({ status: err.statusCode, message: err.message }).toEqual({
      status: 422,
      message: 'nick has already been taken',
    });
    expect((err.cause as DatabaseError).constraint).toBe('members_nick_key');
  });

  it('cancels a statement past statementTimeoutMs with a 503 on a server (PGlite cannot cancel one)', async () => {
    const slow = await engine.fresh({ statementTimeoutMs: 100 });
    const result = await slow.query('select pg_sleep(0.5)').catch((e: unknown) => e);
    if (engine.name === 'pglite') {
      // The embedded engine runs a statement to its end in this process: documented.
      expect(result).toEqual([{ pg_sleep: '' }]);
    } else {
      const err = result as DatabaseError;
      expect({ kind: err.kind, status: err.statusCode, retry: err.headers['retry-after'] }).toEqual(
        {
          kind: 'timeout',
          status: 503,
          retry: '1',
        },
      );
    }
    await slow.close();
  });
});
