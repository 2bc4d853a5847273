/**
 * `keelson db migrate|status|new`: the project's migrations, on the database its settings name.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { loadConfig } from '../config/load.js';
import { Database } from '../db/database.js';
import { MigrationError } from '../db/migrations.js';
import { LogFormat, Logger } from '../logger/index.js';
import { eventsCommand } from './db-events.js';
import { nextMigrationName } from './names.js';
import { type CliIo, type Parsed, parse, stringOption, UsageError } from './usage.js';

/** The help of `keelson db`. */
export const DB_HELP = `Usage: keelson db <migrate|status|new> [options]

  db migrate          apply the pending migrations; prints each file applied
  db status           print every migration file with its state (applied, pending, changed,
                      missing); exit 1 when one is changed or missing
  db new <name>       write migrations/<next number>_<name>.sql, empty, to fill in
  db events --dead    list the outbox's dead-lettered events (id, topic, subscriber, tries, error)
  db events --retry <id> [--subscriber <name>]
                      make a dead-lettered event due again

The database is DATABASE_URL (from the environment, else from .env): postgres://… for a server;
unset for the embedded database (PGlite) in .keelson/db, as \`database()\` uses. Stop the service
before migrating its embedded database: only one process may open it.

Options:
  --url <url>            the database instead of DATABASE_URL (postgres://… or memory://)
  --migrations <dir>     the migrations folder (default: migrations)
  --data-dir <dir>       the embedded database's folder (default: .keelson/db)
  -h, --help             this help`;

const OPTIONS = {
  url: { type: 'string' },
  dead: { type: 'boolean' },
  retry: { type: 'string' },
  subscriber: { type: 'string' },
  migrations: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

/** Every variable as it is: loadConfig reads `.env` under the environment, the command picks. */
const anyVariables: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'keelson', validate: (value) => ({ value: value as never }) },
};

/** The database URL the command uses: `--url`, else DATABASE_URL from the environment or `.env`. */
function databaseUrl(parsed: Parsed, io: CliIo): string | undefined {
  const flag = stringOption(parsed, 'url');
  if (flag !== undefined) return flag;
  const vars = loadConfig(anyVariables, {
    env: io.env ?? process.env,
    envFile: join(io.cwd, '.env'),
  });
  const url = vars.DATABASE_URL;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

function openDatabase(parsed: Parsed, io: CliIo): Database {
  const quiet = new Logger({ isProduction: true, format: LogFormat.JSON, writer: { write() {} } });
  return new Database({
    url: databaseUrl(parsed, io),
    dataDir: resolve(io.cwd, stringOption(parsed, 'data-dir') ?? '.keelson/db'),
    migrations: migrationsFolder(parsed, io),
    logger: quiet,
  });
}

function migrationsFolder(parsed: Parsed, io: CliIo): string {
  return resolve(io.cwd, stringOption(parsed, 'migrations') ?? 'migrations');
}

function where(db: Database, io: CliIo): string {
  if (db.engine === 'postgres') return db.location;
  if (db.location === 'memory://') return 'memory:// (embedded, in memory)';
  return `${relative(io.cwd, db.location) || '.'} (embedded PostgreSQL, PGlite)`;
}

async function migrate(db: Database, io: CliIo): Promise<number> {
  let applied: string[];
  try {
    applied = await db.migrate();
  } catch (err) {
    if (!(err instanceof MigrationError)) throw err;
    io.err(`keelson db migrate: ${err.message}`);
    return 1;
  }
  if (applied.length === 0) io.out('nothing to apply: every migration is applied');
  for (const name of applied) io.out(`applied ${name}`);
  return 0;
}

async function status(db: Database, io: CliIo): Promise<number> {
  let rows: Awaited<ReturnType<Database['migrationStatus']>>;
  try {
    rows = await db.migrationStatus();
  } catch (err) {
    if (!(err instanceof MigrationError)) throw err;
    io.err(`keelson db status: ${err.message}`);
    return 1;
  }
  if (rows.length === 0) io.out(`no migrations in ${db.migrationsPath}`);
  for (const row of rows) {
    const at = row.appliedAt ? `  ${row.appliedAt.toISOString()}` : '';
    io.out(`${row.state.padEnd(8)} ${row.name}${at}`);
  }
  const bad = rows.filter((r) => r.state === 'changed' || r.state === 'missing');
  if (bad.length > 0) {
    io.err(
      `${bad.map((r) => `${r.name} is ${r.state}`).join(', ')}: an applied migration must stay as it was; add a new one instead`,
    );
    return 1;
  }
  return 0;
}

async function newMigration(parsed: Parsed, io: CliIo, name: string | undefined): Promise<number> {
  if (!name) throw new UsageError('the migration name is missing: keelson db new <name>');
  if (name.length > 60 || !/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/.test(name)) {
    throw new UsageError(
      `invalid migration name ${JSON.stringify(name)}: use lower-case words joined by - or _ (e.g. add-email)`,
    );
  }
  const dir = migrationsFolder(parsed, io);
  await mkdir(dir, { recursive: true });
  const file = join(dir, nextMigrationName(await readdir(dir), name));
  if (existsSync(file)) throw new Error(`${file} already exists`);
  await writeFile(
    file,
    `-- ${name.replaceAll(/[-_]/g, ' ')}: applied once, in its own transaction, by keelson db migrate\n-- (or at the app's start). Never edit it once applied: add a new migration.\n`,
  );
  io.out(`created ${relative(io.cwd, file)}`);
  return 0;
}

/** Runs `keelson db`; returns the exit code. */
export async function dbCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parse(argv, OPTIONS, 2);
  const [action, name] = parsed.positionals;
  if (parsed.values.help) {
    io.out(DB_HELP);
    return 0;
  }
  if (action === 'new') return newMigration(parsed, io, name);
  if (action !== 'migrate' && action !== 'status' && action !== 'events') {
    throw new UsageError(
      action
        ? `unknown db command ${JSON.stringify(action)}: migrate, status, new or events`
        : 'what to do is missing: keelson db migrate, status, new <name> or events',
    );
  }
  if (name !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(name)}`);
  const db = openDatabase(parsed, io);
  try {
    io.out(`database: ${where(db, io)}`);
    if (action === 'events') return await eventsCommand(db, parsed, io);
    return action === 'migrate' ? await migrate(db, io) : await status(db, io);
  } finally {
    await db.close();
  }
}
