// The database of `npm run bench -- --db`: a PostgreSQL server started for the run (initdb in a
// temporary directory, as test/support/postgres.ts does for the tests), a `users` table of
// 10,000 rows shaped like the bench's answers, and a directory for the embedded engine's copy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../../test/support/postgres.js';

/** Where the database contenders find their data, and how to remove it. */
export interface BenchDatabase {
  /** DATABASE_URL (the server) and DB_DATA_DIR (the embedded store), for every contender. */
  readonly env: Readonly<Record<string, string>>;
  /** PostgreSQL's version, for the report. */
  readonly version: string;
  /** Stops the server and removes both stores. */
  stop(): Promise<void>;
}

/** Starts PostgreSQL and seeds it; the embedded store is seeded by its server's first start. */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  const server = await startPostgres();
  const embedded = mkdtempSync(join(tmpdir(), 'keelson-bench-pglite-'));
  try {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('create table users (id int primary key, name text, email text)');
      await client.query(
        `insert into users select i, 'user ' || i, 'user' || i || '@example.com'
         from generate_series(1, 10000) as i`,
      );
      await client.query('vacuum analyze users');
      const { rows } = await client.query<{ server_version: string }>('show server_version');
      return {
        env: { DATABASE_URL: url, DB_DATA_DIR: join(embedded, 'db') },
        version: rows[0]?.server_version ?? 'unknown',
        async stop() {
          await server.stop();
          rmSync(embedded, { recursive: true, force: true });
        },
      };
    } finally {
      await client.end();
    }
  } catch (err) {
    await server.stop();
    rmSync(embedded, { recursive: true, force: true });
    throw err;
  }
}
