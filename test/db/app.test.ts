import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QueryMetric, Span, SpanStartOptions, Tracer } from '../../src/contracts.js';
import { Database, database } from '../../src/db/database.js';
import { DatabaseError } from '../../src/db/errors.js';
import { NOOP_SPAN } from '../../src/extend/index.js';
import { get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { freePort } from '../support/redis.js';
import { engines } from './engines.js';

const dir = mkdtempSync(join(tmpdir(), 'keelson-app-db-'));
writeFileSync(
  join(dir, '0001_notes.sql'),
  'create table notes (id serial primary key, body text);',
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a database on an app', () => {
  it('refuses to be used on a group, saying to use it on the app', () => {
    const { app } = testApp();
    expect(() => app.group('/v1').use(database({ url: 'memory://' }))).toThrow(
      'Database must be used on the app (app.use(…)), not on a group ("/v1")',
    );
  });

  it('says where it is without the password, and its health check never shows it', async () => {
    const port = await freePort();
    const db = database({
      url: `postgres://keelson:s3cret-pw@127.0.0.1:${port}/app`,
      pool: { connectTimeoutMs: 300 },
    });
    expect(db.location).toBe(`postgres://keelson:***@127.0.0.1:${port}/app`);
    const { app, lines } = testApp();
    app.use(db);
    const res = await app.inject('/health');
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.database).toMatch(/^DOWN: /);
    expect(res.body + lines.join('\n')).not.toContain('s3cret-pw');
    expect(lines.join('\n')).toContain(
      `database: PostgreSQL at postgres://keelson:***@127.0.0.1:${port}/app`,
    );
    await app.close();
  });
});

describe.each(engines)('a database on an app, on $name', (engine) => {
  it('migrates once before the first injected request, answers health, and closes after every other hook', async () => {
    const db = await engine.fresh({ migrations: dir });
    const { app, lines } = testApp();
    app.use(db);
    app.addRoutes(get('/notes', () => db.sql`select body from notes order by id`));
    const order: string[] = [];
    app.onShutdown(async () => {
      await db.sql`insert into notes (body) values ('written at shutdown')`;
      order.push('hook wrote');
    });
    expect((await app.inject('/notes')).json()).toEqual([]);
    expect((await app.inject('/notes')).statusCode).toBe(200);
    expect(lines.filter((l) => l.includes('migration 0001_notes.sql applied'))).toHaveLength(1);
    expect((await app.inject('/health')).json().checks).toEqual({ database: 'UP' });
    expect(await app.close()).toBe(true);
    expect(order).toEqual(['hook wrote']);
    await expect(db.query('select 1')).rejects.toThrow('the database is closed');
  });

  it("shows middleware and the error-body hook a DatabaseError, never the driver's error, and JSON no bigint", async () => {
    const db = await engine.fresh({ int8: 'bigint' });
    await db.query('create table tags (name text primary key)');
    const seen: unknown[] = [];
    const bodies: unknown[] = [];
    const { app, lines } = testApp({
      errors: {
        body: (problem) => {
          bodies.push(problem);
          return problem;
        },
      },
    });
    app.use(db);
    const group = app.group('/g', async (_c, next) => {
      try {
        return await next();
      } catch (err) {
        seen.push(err);
        throw err;
      }
    });
    group.addRoutes(
      post('/tags', async () => {
        await db.sql`insert into tags values ('a'), ('a')`;
        return 'never';
      }),
      get('/big', () => db.sql`select 1::int8 as n`.one()),
    );
    const res = await app.inject({ method: 'POST', url: '/g/tags' });
    expect(res.statusCode).toBe(409);
    expect(seen[0]).toBeInstanceOf(DatabaseError);
    expect(bodies[0]).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(JSON.stringify(bodies[0])).not.toMatch(/tags_pkey|insert/);
    // int8: 'bigint' gives bigints, which JSON cannot hold: the answer is a 500 that says why.
    const big = await app.inject('/g/big');
    expect(big.statusCode).toBe(500);
    // V8 and Bun's JavaScriptCore word the TypeError differently.
    expect(lines.join('\n')).toMatch(
      /Do not know how to serialize a BigInt|cannot serialize BigInt/,
    );
    await app.close();
  });

  it("lists each request's queries in the dev panel, texts without values", async () => {
    const db = await engine.fresh();
    const { app } = testApp({ env: 'development' });
    app.use(db);
    app.addRoutes(
      get('/two/:v', async (c) => {
        await db.sql`select ${c.params.v}::text as v`;
        return db.sql`select 2 as n`.one();
      }),
    );
    await app.inject('/two/hidden-value');
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.fastify.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/_keelson/api/events`, {
      signal: AbortSignal.timeout(5_000),
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('/two/hidden-value')) {
      text += new TextDecoder().decode((await reader.read()).value);
    }
    await reader.cancel();
    const requests = [...text.matchAll(/event: request\ndata: (.*)\n/g)].map((m) =>
      JSON.parse(m[1]!),
    );
    const mine = requests.find((r) => r.path === '/two/hidden-value');
    expect(mine?.queries).toEqual([
      { text: 'select $1::text as v', durationMs: expect.any(Number), failed: false },
      { text: 'select 2 as n', durationMs: expect.any(Number), failed: false },
    ]);
    app.fastify.server.closeAllConnections();
    await app.close();
  });

  it('reports each query to the metrics collector and the tracer, and warns of a slow one with the request id', async () => {
    const db = await engine.fresh({ slowQueryMs: 0 });
    const { app, lines } = testApp();
    const metrics: QueryMetric[] = [];
    const spans: Array<{ name: string; options: SpanStartOptions | undefined }> = [];
    const tracer: Tracer = {
      start(name, options): Span {
        spans.push({ name, options });
        return NOOP_SPAN;
      },
    };
    app.setMetricsCollector({ recordRequest() {}, recordQuery: (m) => metrics.push(m) });
    app.setTracer(tracer);
    app.use(db);
    app.addRoutes(get('/q/:v', (c) => db.sql`select ${c.params.v}::text as v`.one()));
    const res = await app.inject({ url: '/q/secret-value', headers: { 'x-request-id': 'req-42' } });
    expect(res.json()).toEqual({ v: 'secret-value' });
    expect(metrics).toEqual([
      { operation: 'select', durationMs: expect.any(Number), failed: false },
    ]);
    const query = spans.find((s) => s.name === 'db select');
    expect(query?.options).toMatchObject({
      kind: 'client',
      attributes: { 'db.system.name': 'postgresql', 'db.query.text': 'select $1::text as v' },
    });
    const warn = lines
      .map((l) => JSON.parse(l))
      .find((e) => /^slow query/.test(e.msg ?? e.message ?? ''));
    expect(warn).toMatchObject({ requestId: 'req-42' });
    expect(JSON.stringify(warn)).not.toContain('secret-value');
    await app.close();
  });
});

it('keeps Database usable as a type and a value from keelson/db', () => {
  expect(database({ url: 'memory://' })).toBeInstanceOf(Database);
});
