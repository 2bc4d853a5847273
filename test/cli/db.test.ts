import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/usage.js';
import { Database } from '../../src/db/database.js';
import { type PostgresServer, postgresTool, startPostgres } from '../support/postgres.js';

// `keelson db` in a temporary project: the embedded database in the project's .keelson/db (a
// new PGlite per command, as a person running the command gets), and a real PostgreSQL named
// by DATABASE_URL in the project's .env.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keelson-cli-db-'));
  await mkdir(join(dir, 'migrations'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { cwd: dir, env, out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const write = (file: string, sql: string) => writeFile(join(dir, 'migrations', file), sql);

describe('keelson db new', () => {
  it('writes the next numbered file, keeping the width, and refuses a bad name', async () => {
    expect(await cli(['db', 'new', 'users'])).toMatchObject({
      code: 0,
      out: `created ${join('migrations', '0001_users.sql')}`,
    });
    await write('0009_other.sql', 'select 1;');
    await writeFile(join(dir, 'migrations/notes.txt'), 'not a migration');
    expect((await cli(['db', 'new', 'add-email'])).code).toBe(0);
    // Sorted here: Node.js lists a folder in name order, Bun in the file system's order.
    expect((await readdir(join(dir, 'migrations'))).sort()).toEqual([
      '0001_users.sql',
      '0009_other.sql',
      '0010_add_email.sql',
      'notes.txt',
    ]);
    expect(await readFile(join(dir, 'migrations/0010_add_email.sql'), 'utf8')).toMatch(
      /^-- add email: /,
    );
    await cli(['db', 'new', 'wide', '--migrations', 'db/changes']);
    expect(existsSync(join(dir, 'db/changes/0001_wide.sql'))).toBe(true);
    for (const bad of [
      ['db', 'new'],
      ['db', 'new', 'Bad Name'],
      ['db', 'new', '../x'],
    ]) {
      expect((await cli(bad)).code, bad.join(' ')).toBe(2);
    }
    expect((await cli(['db'])).err).toContain('keelson db migrate, status, new <name> or events');
    expect((await cli(['db', 'drop'])).err).toContain('unknown db command "drop"');
    expect((await cli(['db', 'status', 'extra'])).code).toBe(2);
    expect((await cli(['db', '--help'])).out).toMatch(/^Usage: keelson db /);
  });
});

describe('keelson db on the embedded database', () => {
  it('migrates, reports each state, and fails naming the file (and line) of a changed or failing migration', async () => {
    await write('0001_users.sql', 'create table users (id serial primary key, name text);\n');
    const before = await cli(['db', 'status']);
    expect(before).toMatchObject({ code: 0 });
    expect(before.out).toContain('.keelson/db (embedded PostgreSQL, PGlite)');
    expect(before.out).toMatch(/^pending +0001_users\.sql$/m);

    expect(await cli(['db', 'migrate'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/\napplied 0001_users\.sql$/),
    });
    // The data is on disk: a second command (a new PGlite) finds the table made.
    await write(
      '0002_bad.sql',
      'alter table users add column email text;\n\nselect nope from users;\n',
    );
    const failed = await cli(['db', 'migrate']);
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/migration 0002_bad\.sql failed at line 3: .*nope/);

    await write('0001_users.sql', 'create table users (id bigserial primary key);\n');
    const changed = await cli(['db', 'status']);
    expect(changed.code).toBe(1);
    expect(changed.out).toMatch(/^changed +0001_users\.sql {2}\d{4}-/m);
    expect(changed.out).toMatch(/^pending +0002_bad\.sql$/m);
    expect(changed.err).toContain('0001_users.sql is changed');
    expect(await cli(['db', 'migrate'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('migration 0001_users.sql was changed after it was applied'),
    });
  }, 180_000);

  it('uses --data-dir and --migrations, and says when the folder is missing', async () => {
    await mkdir(join(dir, 'sql'));
    await writeFile(join(dir, 'sql/0001_a.sql'), 'create table a (id int);');
    const done = await cli(['db', 'migrate', '--data-dir', 'var/pg', '--migrations', 'sql']);
    expect(done).toMatchObject({ code: 0, out: expect.stringContaining('applied 0001_a.sql') });
    expect(done.out).toContain('var/pg (embedded PostgreSQL, PGlite)');
    expect(existsSync(join(dir, 'var/pg'))).toBe(true);
    expect(existsSync(join(dir, '.keelson'))).toBe(false);
    expect(
      await cli(['db', 'status', '--url', 'memory://', '--migrations', 'nowhere']),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining(`the migrations folder ${join(dir, 'nowhere')} does not exist`),
    });
    expect(await cli(['db', 'status', '--url', 'mysql://x'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('url should start with postgres://'),
    });
  }, 180_000);
});

describe.skipIf(!postgresTool.available)('keelson db on PostgreSQL', () => {
  let server: PostgresServer | undefined;
  afterAll(() => server?.stop());

  it('reads DATABASE_URL from .env, the environment winning, and --url winning over both', async () => {
    server = await startPostgres();
    const url = await server.createDatabase();
    const other = await server.createDatabase();
    await write('0001_users.sql', 'create table users (id serial primary key);');
    await writeFile(join(dir, '.env'), `DATABASE_URL=${url}\n`);
    const migrated = await cli(['db', 'migrate']);
    expect(migrated).toMatchObject({
      code: 0,
      out: expect.stringContaining('applied 0001_users.sql'),
    });
    expect(migrated.out).toContain(`database: ${url}`);
    expect((await cli(['db', 'status'])).out).toMatch(/^applied +0001_users\.sql/m);
    // The environment wins over .env: the other database has nothing applied.
    expect((await cli(['db', 'status'], { DATABASE_URL: other })).out).toMatch(
      /^pending +0001_users\.sql/m,
    );
    expect((await cli(['db', 'status', '--url', other], { DATABASE_URL: url })).out).toMatch(
      /^pending +0001_users\.sql/m,
    );
    await rm(join(dir, 'migrations/0001_users.sql'));
    expect(await cli(['db', 'status'])).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^missing +0001_users\.sql/m),
      err: expect.stringContaining('0001_users.sql is missing'),
    });
    expect(existsSync(join(dir, '.keelson'))).toBe(false);
  }, 120_000);

  it('lists the dead-lettered events and makes one due again', async () => {
    server ??= await startPostgres();
    const url = await server.createDatabase();
    const db = new Database({ url });
    await db.migrate();
    await db.query(`insert into keelson_subscribers (name, topic) values ('mailer', 'mail.send')`);
    const id = await db.transaction(() => db.publish('mail.send', { to: 'a@b.c' }));
    await db.query(
      `update keelson_deliveries set state = 'dead', attempts = 6, last_error = 'Error: smtp down'`,
    );
    const env = { DATABASE_URL: url };
    expect(await cli(['db', 'events', '--dead'], env)).toMatchObject({
      code: 0,
      out: expect.stringContaining(`${id}  mail.send  mailer  6 tries  Error: smtp down`),
    });
    expect(await cli(['db', 'events', '--retry', id], env)).toMatchObject({
      code: 0,
      out: expect.stringContaining(`event ${id}: 1 delivery due again`),
    });
    expect((await cli(['db', 'events', '--dead'], env)).out).toContain('no dead events');
    expect((await cli(['db', 'events', '--retry', id], env)).code).toBe(1);
    expect((await cli(['db', 'events'], env)).code).toBe(2);
    expect((await cli(['db', 'events', '--retry', 'x'], env)).code).toBe(2);
    await db.close();
  }, 120_000);
});
