import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MigrationError } from '../../src/db/migrations.js';
import { memoryLogger } from '../app/helpers.js';
import { engines } from './engines.js';

const dirs: string[] = [];
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-migrations-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const USERS = 'create table users (id serial primary key, name text not null);\n';
const POSTS = 'create table posts (id serial primary key, user_id int references users(id));\n';

describe.each(engines)('migrations on $name', (engine) => {
  it('applies pending files in name order, once, and records each', async () => {
    const dir = folder({ '0002_posts.sql': POSTS, '0001_users.sql': USERS, 'notes.txt': 'x' });
    const db = await engine.fresh({ migrations: dir });
    expect(await db.migrationStatus()).toEqual([
      { name: '0001_users.sql', state: 'pending' },
      { name: '0002_posts.sql', state: 'pending' },
    ]);
    expect(await db.migrate()).toEqual(['0001_users.sql', '0002_posts.sql']);
    expect(await db.migrate()).toEqual([]);
    writeFileSync(join(dir, '0003_more.sql'), 'alter table users add column email text;');
    expect(await db.migrate()).toEqual(['0003_more.sql']);
    expect((await db.migrationStatus()).map((m) => m.state)).toEqual([
      'applied',
      'applied',
      'applied',
    ]);
    await db.close();
  });

  it('refuses to go on when an applied file was edited or removed, naming it', async () => {
    const dir = folder({ '0001_users.sql': USERS, '0002_posts.sql': POSTS });
    const db = await engine.fresh({ migrations: dir });
    await db.migrate();
    writeFileSync(join(dir, '0001_users.sql'), `${USERS}-- edited\n`);
    await expect(db.migrate()).rejects.toThrow(
      /migration 0001_users.sql was changed after it was applied/,
    );
    expect((await db.migrationStatus())[0]).toMatchObject({
      name: '0001_users.sql',
      state: 'changed',
    });
    writeFileSync(join(dir, '0001_users.sql'), USERS);
    rmSync(join(dir, '0002_posts.sql'));
    const err = await db.migrate().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as MigrationError).file).toBe('0002_posts.sql');
    expect((err as Error).message).toMatch(/0002_posts.sql was applied but its file is missing/);
    await db.close();
  });

  it('rolls a failing file back whole and names its line', async () => {
    const dir = folder({
      '0001_users.sql': USERS,
      '0002_broken.sql':
        'create table half (id int);\n\ninsert into half values (1);\nselec oops;\n',
    });
    const db = await engine.fresh({ migrations: dir });
    const err = (await db.migrate().catch((e: unknown) => e)) as MigrationError;
    expect(err).toBeInstanceOf(MigrationError);
    expect(err.message).toMatch(/^migration 0002_broken.sql failed at line 4: syntax error/);
    expect(await db.query(`select to_regclass('half') as t`)).toEqual([{ t: null }]);
    expect(await db.query(`select to_regclass('users') as t`)).toEqual([{ t: 'users' }]);
    expect((await db.migrationStatus()).map((m) => m.state)).toEqual(['applied', 'pending']);
    await db.close();
  });

  it('takes the folder as a relative path, an absolute path or a file URL, and names a missing one', async () => {
    const dir = folder({ '0001_users.sql': USERS });
    for (const migrations of [relative(process.cwd(), dir), dir, pathToFileURL(dir)]) {
      const db = await engine.fresh({ migrations });
      expect(await db.migrate()).toEqual(['0001_users.sql']);
      await db.close();
    }
    const db = await engine.fresh({ migrations: 'nope-dir' });
    await expect(db.migrate()).rejects.toThrow(
      `the migrations folder ${join(process.cwd(), 'nope-dir')} does not exist`,
    );
    await db.close();
  });

  it('applies each file once when several migrators start together', async () => {
    const dir = folder({ '0001_users.sql': USERS, '0002_posts.sql': POSTS });
    const first = await engine.fresh({ migrations: dir });
    const server = await engine.server();
    // On a server, three separate pools on one database (three replicas); embedded, one engine.
    const others =
      server === undefined
        ? [first, first]
        : await Promise.all(
            [0, 1].map(async () => {
              const { Database } = await import('../../src/db/database.js');
              const url = (first as unknown as { location: string }).location;
              return new Database({ url, migrations: dir, logger: memoryLogger().logger });
            }),
          );
    const applied = await Promise.all([first, ...others].map((db) => db.migrate()));
    expect(applied.flat().sort()).toEqual(['0001_users.sql', '0002_posts.sql']);
    await Promise.all([first, ...others].map((db) => db.close()));
  });
});

describe('copies of an embedded database', () => {
  it('continue its sequences where they stood', async () => {
    const { Database } = await import('../../src/db/database.js');
    const source = new Database({ url: 'memory://' });
    await source.query('create table seq_t (id serial primary key, v text)');
    await source.query(`insert into seq_t (v) values ('a')`);
    const copy = new Database({ url: 'memory://' }, await source.dump());
    expect(await copy.query(`insert into seq_t (v) values ('b') returning id`)).toEqual([
      { id: 2 },
    ]);
    await Promise.all([source.close(), copy.close()]);
  }, 60_000);
});
