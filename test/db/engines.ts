/**
 * The two engines every database test runs on: PGlite in memory, and a real PostgreSQL server
 * (Debian's, started for the test file; skipped with the install hint outside CI when absent).
 * @module
 */
import { afterAll } from 'vitest';
import { Database } from '../../src/db/database.js';
import type { DatabaseOptions } from '../../src/db/options.js';
import { testDatabase } from '../../src/testing/database.js';
import { memoryLogger } from '../app/helpers.js';
import { type PostgresServer, postgresTool, startPostgres } from '../support/postgres.js';

/** One engine: makes fresh databases on it. */
export interface EngineCase {
  readonly name: 'pglite' | 'postgres';
  /** A new, empty (then migrated, if `migrations` is given) database of its own. */
  fresh(options?: Omit<DatabaseOptions, 'url'>): Promise<Database>;
  /** The server, for the PostgreSQL case. */
  server(): Promise<PostgresServer | undefined>;
}

let server: Promise<PostgresServer> | undefined;
const opened: Database[] = [];

afterAll(async () => {
  await Promise.all(opened.map((db) => db.close().catch(() => {})));
  await (await server)?.stop();
});

let empty: Promise<Blob> | undefined;

const pglite: EngineCase = {
  name: 'pglite',
  async fresh(options = {}) {
    // A copy of an empty, cached cluster: a new PGlite cluster takes seconds, a copy well under one.
    empty ??= testDatabase().then(async (db) => {
      try {
        return await db.dump();
      } finally {
        await db.close();
      }
    });
    return track(new Database({ ...quiet(options), url: 'memory://' }, await empty));
  },
  server: async () => undefined,
};

const postgres: EngineCase = {
  name: 'postgres',
  async fresh(options = {}) {
    server ??= startPostgres();
    const url = await (await server).createDatabase();
    return track(new Database({ ...quiet(options), url }));
  },
  server: () => (server ??= startPostgres()),
};

/** A test's database logs to memory unless it brings its own logger: `npm test` stays quiet. */
function quiet(options: Omit<DatabaseOptions, 'url'>): Omit<DatabaseOptions, 'url'> {
  return { logger: memoryLogger().logger, ...options };
}

function track(db: Database): Database {
  opened.push(db);
  return db;
}

const all: EngineCase[] = postgresTool.available ? [pglite, postgres] : [pglite];
// KEELSON_TEST_ENGINES=pglite keeps the tests to the named engines (comma-separated): a mutation
// run (test/MUTATION.md) leaves PostgreSQL out, whose servers would make every mutant slow.
const only = process.env.KEELSON_TEST_ENGINES?.split(',').map((name) => name.trim());

/** The engines to run on: both where PostgreSQL is installed (always in CI), or those named. */
export const engines: EngineCase[] = only ? all.filter((e) => only.includes(e.name)) : all;
