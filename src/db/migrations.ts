/**
 * Plain `.sql` migrations, applied in name order, each in its own transaction, recorded with
 * a checksum, under an advisory lock so replicas starting together apply each file once.
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine, EngineConnection } from './engine.js';
import { lineOf } from './failure.js';

/** Any id will do, as long as every replica uses the same one. */
const LOCK_ID = 7_351_200_231;
const TABLE = 'keelson_migrations';

/** Why the migrations could not be applied; names the file (and the line, for a SQL error). */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  /** The migration file concerned, when one is. */
  readonly file: string | undefined;

  /** `file`: the file concerned, if any. */
  constructor(message: string, file?: string, options?: ErrorOptions) {
    super(message, options);
    this.file = file;
  }
}

/** One migration file and where it stands. */
export interface MigrationStatus {
  /** The file's name, e.g. `0001_users.sql`. */
  readonly name: string;
  /** `applied`, `pending`, `changed` (applied, then edited) or `missing` (applied, file gone). */
  readonly state: 'applied' | 'pending' | 'changed' | 'missing';
  /** When it was applied. */
  readonly appliedAt?: Date;
}

/** The folder of `migrations` as an absolute path (a relative one is from the working directory). */
export function migrationsDir(migrations: string | URL): string {
  return migrations instanceof URL || migrations.startsWith('file:')
    ? fileURLToPath(migrations)
    : resolve(migrations);
}

interface MigrationFile {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

function readFiles(dir: string): MigrationFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new MigrationError(`the migrations folder ${dir} does not exist`);
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => {
      const sql = readFileSync(resolve(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

async function applied(
  conn: EngineConnection,
): Promise<Map<string, { checksum: string; at: Date }>> {
  await conn.exec(
    `create table if not exists ${TABLE} (name text primary key, checksum text not null, applied_at timestamptz not null default now())`,
  );
  const { rows } = await conn.query(`select name, checksum, applied_at from ${TABLE}`, []);
  return new Map(
    rows.map((r) => [String(r.name), { checksum: String(r.checksum), at: r.applied_at as Date }]),
  );
}

/** Where each file stands, without changing anything (the lock is taken to read a settled table). */
export async function migrationStatus(engine: Engine, dir: string): Promise<MigrationStatus[]> {
  const files = readFiles(dir);
  return locked(engine, async (conn) => {
    const done = await applied(conn);
    const out: MigrationStatus[] = files.map((f) => {
      const row = done.get(f.name);
      if (!row) return { name: f.name, state: 'pending' };
      return {
        name: f.name,
        state: row.checksum === f.checksum ? 'applied' : 'changed',
        appliedAt: row.at,
      };
    });
    for (const [name, row] of done) {
      if (!files.some((f) => f.name === name))
        out.push({ name, state: 'missing', appliedAt: row.at });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  });
}

/**
 * Makes Keelson's own tables (`builtin`), then applies the pending files of `dir` (if any) and
 * resolves their names. Refuses, changing nothing, when an applied file was edited or removed; a
 * failing file is rolled back whole and named with the line of its error.
 */
export async function applyMigrations(
  engine: Engine,
  dir: string | undefined,
  builtin: readonly string[] = [],
): Promise<string[]> {
  const files = dir === undefined ? [] : readFiles(dir);
  return locked(engine, async (conn) => {
    for (const statement of builtin) await conn.query(statement, []);
    const done = await applied(conn);
    for (const [name, row] of done) {
      const file = files.find((f) => f.name === name);
      if (!file) {
        throw new MigrationError(
          `migration ${name} was applied but its file is missing from ${dir ?? 'the migrations folder'}`,
          name,
        );
      }
      if (file.checksum !== row.checksum) {
        throw new MigrationError(
          `migration ${name} was changed after it was applied: add a new migration instead of editing it`,
          name,
        );
      }
    }
    const pending = files.filter((f) => !done.has(f.name));
    for (const file of pending) await applyOne(conn, file);
    return pending.map((f) => f.name);
  });
}

async function applyOne(conn: EngineConnection, file: MigrationFile): Promise<void> {
  await conn.query('begin', []);
  try {
    await conn.exec(file.sql);
    await conn.query(`insert into ${TABLE} (name, checksum) values ($1, $2)`, [
      file.name,
      file.checksum,
    ]);
    await conn.query('commit', []);
  } catch (err) {
    await conn.query('rollback', []).catch(() => {});
    const e = err as { message?: unknown; position?: unknown };
    const line = lineOf(file.sql, e.position);
    throw new MigrationError(
      `migration ${file.name} failed${line === undefined ? '' : ` at line ${line}`}: ${String(e.message ?? err)}`,
      file.name,
      { cause: err },
    );
  }
}

async function locked<T>(engine: Engine, fn: (conn: EngineConnection) => Promise<T>): Promise<T> {
  const conn = await engine.connect();
  let broken = false;
  try {
    await conn.query('select pg_advisory_lock($1)', [LOCK_ID]);
    try {
      return await fn(conn);
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {
        broken = true;
      });
    }
  } finally {
    conn.release(broken);
  }
}
