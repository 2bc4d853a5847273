import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/database.js';
import { killAll, startLogProcess } from '../support/log-process.js';
import { type PostgresServer, postgresTool, startPostgres } from '../support/postgres.js';

const fixture = new URL('./fixtures/outbox-replica.ts', import.meta.url).pathname;

describe.skipIf(!postgresTool.available)('the outbox across replicas on PostgreSQL', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  afterEach(() => killAll());

  it('handles 1,000 events once each with three replicas, one of them killed -9 mid-run', async () => {
    const url = await server.createDatabase();
    const db = new Database({ url });
    await db.migrate();
    await db.query('create table effects (event_id text not null, replica int not null)');
    const replicas = [0, 1, 2].map(() => startLogProcess(fixture, { DATABASE_URL: url }));
    await Promise.all(replicas.map((r) => r.port));
    await db.transaction(async () => {
      for (let i = 0; i < 1000; i++) await db.publish('work.done', { i });
    });
    const count = async () =>
      Number((await db.query<{ n: string }>('select count(*) as n from effects'))[0]!.n);
    while ((await count()) < 150) await new Promise((r) => setTimeout(r, 20));
    replicas[0]!.child.kill('SIGKILL');
    const started = Date.now();
    while ((await count()) < 1000 && Date.now() - started < 60_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const [totals] = await db.query<{ n: string; distinct: string; replicas: string }>(
      'select count(*) as n, count(distinct event_id) as distinct, count(distinct replica) as replicas from effects',
    );
    expect(totals).toEqual({ n: '1000', distinct: '1000', replicas: '3' });
    const pending = await db.query(`select 1 from keelson_deliveries where state <> 'done'`);
    expect(pending).toEqual([]);
    for (const r of replicas.slice(1)) r.child.kill('SIGTERM');
    expect((await Promise.all(replicas.slice(1).map((r) => r.exit))).map((e) => e.code)).toEqual([
      0, 0,
    ]);
    await db.close();
  });

  it('delivers an event committed just before a kill -9, after the restart', async () => {
    const url = await server.createDatabase();
    const db = new Database({ url });
    await db.migrate();
    await db.query('create table effects (event_id text not null, replica int not null)');
    const first = startLogProcess(fixture, { DATABASE_URL: url });
    await first.port;
    first.child.kill('SIGKILL');
    await first.exit;
    // Committed while no replica runs: nothing can send it until one starts again.
    const id = await db.transaction(() => db.publish('work.done', { late: true }));
    const second = startLogProcess(fixture, { DATABASE_URL: url });
    await second.port;
    const deadline = Date.now() + 20_000;
    let rows: Array<{ event_id: string }> = [];
    while (rows.length === 0 && Date.now() < deadline) {
      rows = await db.query('select event_id from effects');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows).toEqual([{ event_id: id }]);
    second.child.kill('SIGTERM');
    expect((await second.exit).code).toBe(0);
    await db.close();
  });
});
