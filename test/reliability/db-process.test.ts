// keelson/db in a service process: SIGTERM with transactions in flight, a migration that does
// not parse, and three replicas migrating one database together. On a real PostgreSQL, and on
// the embedded engine where one process owns the data.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/database.js';
import { killAll, type ServiceProcess, startLogProcess } from '../support/log-process.js';
import { type PostgresServer, postgresTool, startPostgres } from '../support/postgres.js';
import { addFigures } from './figures.js';

const fixture = fileURLToPath(new URL('./fixtures/db-service.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'keelson-db-process-'));
let server: PostgresServer | undefined;

beforeAll(async () => {
  if (postgresTool.available) server = await startPostgres();
});
afterEach(killAll);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let folders = 0;
/** A migrations folder holding `files` (name → SQL). */
function migrations(files: Record<string, string>): string {
  const folder = join(dir, `migrations-${++folders}`);
  mkdirSync(folder);
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(folder, name), sql);
  return folder;
}

const ORDERS = { '0001_orders.sql': 'create table orders (n int primary key);\n' };

function post(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Where {
  readonly name: string;
  /** The environment that points the service at a new database. */
  env(): Promise<Record<string, string>>;
  /** A Database on the same data, opened once the service has exited. */
  open(env: Record<string, string>): Database;
}

const postgres: Where = {
  name: 'postgres',
  env: async () => ({ DATABASE_URL: await server!.createDatabase() }),
  open: (env) => new Database({ url: env.DATABASE_URL }),
};
let stores = 0;
const pglite: Where = {
  name: 'pglite',
  env: async () => ({ DB_DATA_DIR: join(dir, `store-${++stores}`) }),
  open: (env) => new Database({ dataDir: env.DB_DATA_DIR! }),
};
const places = postgresTool.available ? [pglite, postgres] : [pglite];

async function rows(where: Where, env: Record<string, string>, text: string) {
  const db = where.open(env);
  try {
    return await db.query(text);
  } finally {
    await db.close();
  }
}

const errors = (s: ServiceProcess) => s.entries.filter((e) => e.level === 'error');

describe.each(places)('keelson/db in a service process, on $name', (where) => {
  it('SIGTERM with transactions in flight: each finishes and commits, and the process exits 0', async ({
    task,
  }) => {
    const env = { ...(await where.env()), MIGRATIONS: migrations(ORDERS), HOLD_MS: '1000' };
    const service = startLogProcess(fixture, env);
    const port = await service.port;
    // The embedded engine has one connection: its transactions take turns, so fewer at once.
    const count = where.name === 'pglite' ? 1 : 8;
    const answers = Array.from({ length: count }, (_, n) => post(port, `/orders/${n}`));
    for (let n = 0; n < count; n++) await service.waitFor(new RegExp(`^order ${n} begun$`));
    service.child.kill('SIGTERM');
    const statuses = await Promise.all(answers);
    const exit = await service.exit;
    addFigures(task.meta, { requestsSent: count });

    expect(statuses).toEqual(Array(count).fill(201));
    expect(exit.code).toBe(0);
    expect(errors(service)).toEqual([]);
    const stored = await rows(where, env, 'select n from orders order by n');
    expect(stored.map((r) => r.n)).toEqual(Array.from({ length: count }, (_, n) => n));
  });

  it('a migration with a syntax error: exit 1, one error line naming the file and the line, nothing of it applied', async () => {
    const env = {
      ...(await where.env()),
      MIGRATIONS: migrations({
        ...ORDERS,
        '0002_broken.sql': 'create table half (id int);\n\nselec 1;\n',
      }),
    };
    const service = startLogProcess(fixture, env);
    const exit = await service.exit;

    expect(exit.code).toBe(1);
    const lines = errors(service).map((e) => String(e.message));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/0002_broken\.sql.* at line 3: syntax error at or near "selec"/);
    expect(service.entries.some((e) => /listening on/.test(String(e.message)))).toBe(false);
    const applied = await rows(where, env, 'select name from keelson_migrations order by name');
    expect(applied.map((r) => r.name)).toEqual(['0001_orders.sql']);
    const half = await rows(where, env, "select to_regclass('half') as t");
    expect(half[0]!.t).toBeNull();
  });
});

describe.skipIf(!postgresTool.available)('keelson/db: replicas starting together', () => {
  it('3 processes migrating one database at once apply each migration exactly once', async () => {
    const files: Record<string, string> = {
      '0001_runs.sql': 'create table runs (file text not null, at timestamptz default now());\n',
    };
    for (let i = 2; i <= 6; i++) {
      const name = `000${i}_step.sql`;
      files[name] =
        `create table step${i} (id int);\nselect pg_sleep(0.05);\ninsert into runs (file) values ('${name}');\n`;
    }
    const env = { ...(await postgres.env()), MIGRATIONS: migrations(files) };
    const services = [1, 2, 3].map(() => startLogProcess(fixture, env));
    await Promise.all(services.map((s) => s.port));
    for (const s of services) s.child.kill('SIGTERM');
    const exits = await Promise.all(services.map((s) => s.exit));

    expect(exits.map((e) => e.code)).toEqual([0, 0, 0]);
    const appliedBy = services.flatMap((s) =>
      s.entries
        .map((e) => /^migration (\S+) applied$/.exec(String(e.message))?.[1])
        .filter((name) => name !== undefined),
    );
    expect(appliedBy.sort()).toEqual(Object.keys(files).sort());
    const runs = await rows(
      postgres,
      env,
      'select file, count(*)::int as n from runs group by file',
    );
    expect(runs).toHaveLength(5);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    const recorded = await rows(postgres, env, 'select count(*)::int as n from keelson_migrations');
    expect(recorded[0]!.n).toBe(6);
  });
});
