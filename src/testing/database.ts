/**
 * `testDatabase()`: a fresh, migrated database of its own for each test, on PGlite in memory or
 * on the server `KEELSON_TEST_DATABASE_URL` names, copied from a migrated template.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../db/database.js';
import type { DatabaseOptions } from '../db/options.js';

/** What `testDatabase` takes: the options of `database()`, but where it lives is chosen for you. */
export type TestDatabaseOptions = Omit<DatabaseOptions, 'url' | 'dataDir' | 'migrate'>;

/**
 * A new database, migrated and seen by no other test: PGlite in memory (started from a cached,
 * migrated copy), or, with `KEELSON_TEST_DATABASE_URL` set, a new database on that server made
 * from a migrated template and dropped by `close()`. It is a full `Database`: use it with
 * `app.use(db)` and `db.transactional()` as in production.
 * @example
 * const db = await testDatabase({ migrations: 'migrations' });
 * afterAll(() => db.close());
 */
export async function testDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const server = process.env.KEELSON_TEST_DATABASE_URL;
  if (server) return serverCopy(server, options);
  const template = await embeddedTemplate(options);
  return new Database({ ...options, url: 'memory://', migrate: false }, template);
}

function fingerprint(options: TestDatabaseOptions): string {
  const hash = createHash('sha256');
  const dir = new Database({ ...options, url: 'memory://' }).migrationsPath;
  if (dir !== undefined && existsSync(dir)) {
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith('.sql'))
      .sort()) {
      hash.update(name).update(readFileSync(join(dir, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const templates = new Map<string, Promise<Blob>>();

// A migrated PGlite, dumped once and kept on disk: a copy starts in well under a second where
// a new cluster takes several.
function embeddedTemplate(options: TestDatabaseOptions): Promise<Blob> {
  const key = fingerprint(options);
  let template = templates.get(key);
  if (!template) {
    template = (async () => {
      const dir = join(tmpdir(), 'keelson-test-db');
      const file = join(dir, `${key}.tar`);
      if (existsSync(file)) return new Blob([readFileSync(file)]);
      const db = new Database({ ...options, url: 'memory://' });
      try {
        await db.migrate();
        const dump = await db.dump();
        mkdirSync(dir, { recursive: true });
        const partial = `${file}.${process.pid}.${randomUUID()}`;
        writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
        renameSync(partial, file);
        return dump;
      } finally {
        await db.close();
      }
    })();
    templates.set(key, template);
  }
  return template;
}

async function serverCopy(serverUrl: string, options: TestDatabaseOptions): Promise<Database> {
  const admin = new Database({ url: serverUrl, pool: { max: 1 } });
  const template = `keelson_template_${fingerprint(options)}`;
  const name = `keelson_test_${randomUUID().replaceAll('-', '')}`;
  try {
    // One process makes the template; the others wait on the lock, then find it made. (The pool
    // has one connection, so the lock and the queries share it.)
    await admin.query('select pg_advisory_lock(7351200232)');
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (found.length === 0) {
        await admin.query(`create database ${template}`);
        const migrating = new Database({ ...options, url: withDatabase(serverUrl, template) });
        try {
          await migrating.migrate();
        } finally {
          await migrating.close();
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock(7351200232)');
    }
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.close();
  }
  return new ServerTestDatabase(
    { ...options, url: withDatabase(serverUrl, name), migrate: false },
    serverUrl,
    name,
  );
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

class ServerTestDatabase extends Database {
  readonly #server: string;
  readonly #name: string;
  #dropped: Promise<void> | undefined;

  constructor(options: DatabaseOptions, server: string, name: string) {
    super(options);
    this.#server = server;
    this.#name = name;
  }

  /** Closes the pool and drops the test's database. */
  override close(): Promise<void> {
    this.#dropped ??= (async () => {
      await super.close();
      const admin = new Database({ url: this.#server, pool: { max: 1 } });
      try {
        await admin.query(`drop database if exists ${this.#name} with (force)`);
      } finally {
        await admin.close();
      }
    })();
    return this.#dropped;
  }
}
