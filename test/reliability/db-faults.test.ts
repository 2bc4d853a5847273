// keelson/db under faults, in the test process: PostgreSQL stopped mid-request and started again,
// a pool exhausted by slow requests, a client that hangs up mid-transaction.
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/database.js';
import { App, get, post } from '../../src/index.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';
import { engines } from '../db/engines.js';
import { type PostgresServer, postgresTool, startPostgres } from '../support/postgres.js';
import { addFigures } from './figures.js';

/** An app whose JSON log lines are kept in memory. */
function quietApp(): { app: App; lines: string[] } {
  const lines: string[] = [];
  const logger = newLoggerWithFormat(false, LogFormat.JSON).withWriter({
    write(chunk: string) {
      for (const l of chunk.split('\n')) if (l) lines.push(l);
    },
  });
  const app = new App({ serviceName: 'db-faults', logger, health: { timeoutMs: 1_000 } });
  return { app, lines };
}

const silent = newLoggerWithFormat(false, LogFormat.JSON).withWriter({ write() {} });

/**
 * Stops the server the way an operator's fast shutdown does (SIGINT to the postmaster: sessions
 * are cut, the in-flight query fails), and resolves once it has exited. The postmaster is the
 * parent of any backend; signalling it directly also works when it runs under runuser.
 */
async function stopFast(url: string): Promise<void> {
  const probe = new Database({ url, pool: { max: 1 }, logger: silent });
  const [row] = await probe.query<{ pid: number }>('select pg_backend_pid() as pid');
  await probe.close();
  const stat = readFileSync(`/proc/${row!.pid}/stat`, 'utf8');
  const postmaster = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  process.kill(postmaster, 'SIGINT');
  // Not a child of this process: nothing to await but its disappearance.
  for (const until = Date.now() + 10_000; Date.now() < until; await sleep(20)) {
    try {
      process.kill(postmaster, 0);
    } catch {
      return;
    }
  }
  throw new Error(`postgres (pid ${postmaster}) did not stop within 10 s`);
}

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

describe.each(engines)('keelson/db under faults, on $name', (engine) => {
  it('pool exhausted by 50 slow requests: the waiting ones get a 503 within the connect timeout, then everything answers', async ({
    task,
  }) => {
    const db = await engine.fresh({ pool: { max: 2, connectTimeoutMs: 200 } });
    const { app } = quietApp();
    apps.push(app);
    app.use(db);
    app.addRoutes(
      get('/hold', { middleware: [db.transactional()] }, async () => {
        await db.sql`select 1`;
        await sleep(600);
        return { held: true };
      }),
      get('/ping', () => db.sql`select 1 as one`.one()),
    );
    await app.ready();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await app.inject('/hold');
        return { res, ms: performance.now() - started };
      }),
    );
    const loadEnded = performance.now();
    let recovered = await app.inject('/ping');
    for (let i = 0; i < 20 && recovered.statusCode !== 200; i++)
      recovered = await app.inject('/ping');
    const recoverMs = performance.now() - loadEnded;

    const ok = answers.filter((a) => a.res.statusCode === 200);
    const refused = answers.filter((a) => a.res.statusCode === 503);
    // The embedded engine has one connection; node-postgres has the pool's two.
    expect(ok).toHaveLength(engine.name === 'pglite' ? 1 : 2);
    expect(refused).toHaveLength(50 - ok.length);
    for (const { res } of refused) {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    }
    const slowest503 = Math.max(...refused.map((a) => a.ms));
    expect(slowest503).toBeLessThan(1_500);
    expect(recovered.statusCode).toBe(200);
    expect(recoverMs).toBeLessThan(1_000);
    if (engine.name === 'postgres') {
      addFigures(task.meta, {
        requestsSent: 51,
        serverErrors: refused.length,
        dbPoolSlowest503Ms: Math.round(slowest503),
        dbPoolRecoverMs: Math.round(recoverMs),
      });
    }
    console.log(
      `${engine.name}: pool exhausted, slowest 503 after ${slowest503.toFixed(0)} ms, next 200 ${recoverMs.toFixed(0)} ms after the load`,
    );
  });

  it('a client hanging up mid-transaction: rolled back, the connection given back', async () => {
    const db = await engine.fresh({ pool: { max: 1, connectTimeoutMs: 2_000 } });
    const { app } = quietApp();
    apps.push(app);
    app.use(db);
    await db.query('create table orders (n int primary key)');
    let began: () => void = () => {};
    const beganOnce = new Promise<void>((resolve) => {
      began = resolve;
    });
    app.addRoutes(
      post('/orders/:n', { middleware: [db.transactional()] }, async (c) => {
        const n = Number((c.params as { n: string }).n);
        await db.sql`insert into orders (n) values (${n})`;
        began();
        await sleep(n === 1 ? 400 : 0);
        return c.created({ n });
      }),
    );
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.fastify.server.address() as AddressInfo;
    const req = http.request({ host: '127.0.0.1', port, path: '/orders/1', method: 'POST' });
    req.on('error', () => {});
    req.end();
    await beganOnce;
    req.destroy();
    // One connection: this waits until the transaction gives it back (or fails after 2 s).

    expect(await db.query('select n from orders')).toEqual([]);
    if (engine.name === 'postgres') {
      const stuck = await db.query(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state like 'idle in transaction%'`,
      );
      expect(stuck[0]!.n).toBe(0);
    }
    // One connection: had it been kept, this would wait for it and fail.
    const next = await app.inject({ method: 'POST', url: '/orders/2' });
    expect(next.statusCode).toBe(201);
    expect(await db.query('select n from orders')).toEqual([{ n: 2 }]);
  });
});

describe.skipIf(!postgresTool.available)('keelson/db: PostgreSQL stopped and started again', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  it('answers 503 problem+json with Retry-After while it is down, health DOWN then UP, and serves again', async ({
    task,
  }) => {
    const db = new Database({
      url: await server.createDatabase(),
      pool: { connectTimeoutMs: 500 },
    });
    const { app, lines } = quietApp();
    apps.push(app);
    app.use(db);
    await db.query('create table items (id int primary key, name text)');
    await db.query("insert into items values (1, 'one')");
    app.addRoutes(
      get('/slow', () => db.sql`select pg_sleep(10)`),
      get('/items/:id', (c) => db.sql`select * from items where id = ${c.params.id}`.one()),
    );
    expect((await app.inject('/items/1')).json()).toEqual({ id: 1, name: 'one' });

    const inFlight = app.inject('/slow');
    // Wait until the sleep runs on the server before stopping it.
    const probe = new Database({ url: server.url(), pool: { max: 1 }, logger: silent });
    for (let seen = 0; seen === 0; ) {
      const [row] = await probe.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where query = 'select pg_sleep(10)'",
      );
      seen = row!.n;
    }
    await probe.close();
    await stopFast(server.url());
    const cut = await inFlight;
    const down = await app.inject('/items/1');
    const health = await app.inject('/health');
    for (const res of [cut, down]) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    }
    expect(health.statusCode).toBe(503);
    expect(health.json().checks.database).toMatch(/^DOWN/);

    await server.start();
    const back = performance.now();
    let again = await app.inject('/items/1');
    for (let i = 0; i < 50 && again.statusCode !== 200; i++) again = await app.inject('/items/1');
    const recoverMs = performance.now() - back;
    expect(again.statusCode).toBe(200);
    expect((await app.inject('/health')).json().checks).toEqual({ database: 'UP' });
    for (let i = 0; i < 5; i++) expect((await app.inject('/items/1')).statusCode).toBe(200);
    expect(lines.filter((l) => /"level":"(error|fatal)"/.test(l) && !/"status"/.test(l))).toEqual(
      [],
    );
    addFigures(task.meta, {
      requestsSent: 10,
      serverErrors: 3,
      dbOutageRecoverMs: Math.round(recoverMs),
    });
    console.log(`postgres restarted: next 200 after ${recoverMs.toFixed(0)} ms`);
  });
});
