import { describe, expect, it } from 'vitest';
import { get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { engines } from './engines.js';

const ATTEMPTS = [
  "' or '1'='1",
  "'; drop table users; --",
  "Robert'); DROP TABLE users;--",
  '1; select pg_sleep(5)',
  "\\' or 1=1 --",
  '$1',
  '"users"',
  'ʼ or 1=1 --',
  "admin'/*",
  "x' union select id, name from users --",
];

describe.each(engines)('SQL injection through route params into db.sql, on $name', (engine) => {
  async function service() {
    const db = await engine.fresh();
    const { app } = testApp();
    app.use(db);
    await db.query('create table users (id serial primary key, name text not null)');
    await db.sql`insert into users (name) values ('alice')`;
    app.addRoutes(
      get('/users/by-name/:name', (c) =>
        db.sql`select name from users where name = ${c.params.name}`.one(),
      ),
      get('/users/:id', (c) => db.sql`select name from users where id = ${c.params.id}`.one()),
      post('/users/:name', async (c) =>
        c.created(
          await db.sql`insert into users (name) values (${c.params.name}) returning name`.one(),
        ),
      ),
      get('/count', () => db.sql<{ n: number }>`select count(*)::int as n from users`.one()),
      get(
        '/sorted/:column',
        (c) => db.sql`select name from users order by ${db.sql.id(c.params.column)}`,
      ),
    );
    return { db, app };
  }

  it('compares and stores each attempt as a value, and the table stays whole', async () => {
    const { app } = await service();
    for (const attempt of ATTEMPTS) {
      const path = encodeURIComponent(attempt);
      const before = await app.inject(`/users/by-name/${path}`);
      expect(before.statusCode, attempt).toBe(404);
      const created = await app.inject({ method: 'POST', url: `/users/${path}` });
      expect(created.statusCode, attempt).toBe(201);
      expect(created.json(), attempt).toEqual({ name: attempt });
      const found = await app.inject(`/users/by-name/${path}`);
      expect(found.json(), attempt).toEqual({ name: attempt });
    }
    expect((await app.inject('/count')).json()).toEqual({ n: 1 + ATTEMPTS.length });
  });

  it('an attempt against an integer column is a 400, not a query of its own', async () => {
    const { app } = await service();
    for (const attempt of ['1 or 1=1', '1; drop table users', "1' --"]) {
      const res = await app.inject(`/users/${encodeURIComponent(attempt)}`);
      expect(res.statusCode, attempt).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).not.toContain('users');
    }
    expect((await app.inject('/users/1')).json()).toEqual({ name: 'alice' });
  });

  it('a NUL byte is refused as a 400; an identifier from a param stays one quoted identifier', async () => {
    const { app } = await service();
    const nul = await app.inject({
      method: 'POST',
      url: `/users/${encodeURIComponent('a\u0000b')}`,
    });
    expect(nul.statusCode).toBe(400);
    const sorted = await app.inject(`/sorted/${encodeURIComponent('name; drop table users; --')}`);
    expect(sorted.statusCode).toBe(500);
    expect(sorted.body).not.toContain('drop table');
    expect((await app.inject('/sorted/name')).json()).toEqual([{ name: 'alice' }]);
    expect((await app.inject('/count')).json()).toEqual({ n: 1 });
  });
});
