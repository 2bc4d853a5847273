import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devArgs } from '../../src/cli/dev.js';
import { nameForms } from '../../src/cli/names.js';
import { onBun } from '../../src/runtime.js';
import { runCliIn } from './run-cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keelson-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (argv: string[], cwd = dir) => runCliIn(argv, cwd);

describe('the keelson command', () => {
  it('prints its help with exit 0, and with exit 2 when no command is given', async () => {
    expect(await cli(['--help'])).toMatchObject({
      code: 0,
      out: expect.stringContaining('generate module <name>'),
    });
    expect((await cli([])).code).toBe(2);
    const { out } = await cli(['--help']);
    for (const line of ['db migrate', 'db status', 'db new <name>']) expect(out).toContain(line);
  });

  it('answers a usage mistake with exit 2 and a pointer to --help', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "frobnicate"'),
    });
    for (const inherited of ['constructor', 'toString', '__proto__']) {
      const res = await cli([inherited]);
      expect(res, inherited).toMatchObject({
        code: 2,
        err: expect.stringContaining(`unknown command "${inherited}"`),
      });
    }
    const option = await cli(['new', 'x', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.err).toMatch(/--bogus[\s\S]*keelson new --help/);
    expect((await cli(['new'])).code).toBe(2);
    expect((await cli(['new', 'a', 'b'])).code).toBe(2);
    expect((await cli(['generate'])).code).toBe(2);
    expect((await cli(['generate', 'service', 'x'])).err).toContain('only "module"');
    expect((await cli(['routes', '--out', 'x'])).code).toBe(2);
  });

  it('has a --help for every command', async () => {
    for (const command of ['new', 'generate', 'g', 'routes', 'openapi', 'dev', 'db']) {
      const { code, out } = await cli([command, '--help']);
      expect(code).toBe(0);
      expect(out).toMatch(/^Usage: keelson /);
    }
  });
});

describe('keelson new', () => {
  it('writes a project depending on keelson by version or by the given spec', async () => {
    const { code, out } = await cli([
      'new',
      'svc',
      '--name',
      'orders-api',
      '--keelson',
      'file:../k.tgz',
    ]);
    expect(code).toBe(0);
    expect(out).toContain('npm install && npm start');
    expect(out).toContain('bun install && bun --bun run start');
    const pkg = JSON.parse(await readFile(join(dir, 'svc/package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: 'orders-api',
      type: 'module',
      dependencies: { keelson: 'file:../k.tgz' },
    });
    expect(pkg.scripts).toMatchObject({
      start: expect.any(String),
      test: 'vitest run',
      dev: 'keelson dev',
    });
    for (const file of [
      '.gitignore',
      '.dockerignore',
      'migrations/0001_notes.sql',
      'src/modules/notes/repository.ts',
      '.env.example',
      'Dockerfile',
      'README.md',
      'tsconfig.json',
      'src/main.ts',
      'test/health.test.ts',
      'test/modules/notes.test.ts',
      'src/modules/notes/controller.ts',
    ]) {
      expect(existsSync(join(dir, 'svc', file)), file).toBe(true);
    }
    const app = await readFile(join(dir, 'svc/src/app.ts'), 'utf8');
    expect(app).toContain("serviceName: 'orders-api'");
    expect(app).toContain("database({ url, migrations: 'migrations' })");
    expect(app).toContain('app.use(new NotesModule(db));');
    expect(await readFile(join(dir, 'svc/.gitignore'), 'utf8')).toMatch(/^\.keelson\/$/m);
    expect(pkg.dependencies).toMatchObject({
      '@electric-sql/pglite': expect.any(String),
      pg: expect.any(String),
    });
    // Run from this checkout (not published), a project without --keelson links to it.
    await cli(['new', 'plain']);
    const plain = JSON.parse(await readFile(join(dir, 'plain/package.json'), 'utf8'));
    expect(plain.dependencies.keelson).toBe(`file:${relative(join(dir, 'plain'), ROOT)}`);
  });

  it('refuses a folder that is not empty, and a name that is not a package name', async () => {
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken/notes.txt'), 'mine');
    const taken = await cli(['new', 'taken']);
    expect(taken).toMatchObject({ code: 1, err: expect.stringContaining('is not empty') });
    expect(existsSync(join(dir, 'taken/package.json'))).toBe(false);
    expect((await cli(['new', 'Bad Name'])).code).toBe(2);
    expect((await cli(['new', 'ok', '--name', 'UPPER'])).code).toBe(2);
  });
});

describe('keelson generate module', () => {
  async function project() {
    await writeFile(join(dir, 'package.json'), '{}');
    await mkdir(join(dir, 'src'));
  }

  it('writes the module and its test and prints the lines for src/app.ts', async () => {
    await project();
    const { code, out } = await cli(['g', 'module', 'order-items']);
    expect(code).toBe(0);
    expect(out).toContain("import { OrderItemsModule } from './modules/order-items/index.js';");
    expect(out).toContain('app.use(new OrderItemsModule(db));');
    const controller = await readFile(join(dir, 'src/modules/order-items/controller.ts'), 'utf8');
    expect(controller).toContain("'/order-items/:id'");
    expect(controller).toContain('class OrderItemsController');
    expect(controller).not.toMatch(/__\w+__/);
    const schemas = await readFile(join(dir, 'src/modules/order-items/schemas.ts'), 'utf8');
    expect(schemas).toContain("meta({ id: 'OrderItem' })");
    expect(existsSync(join(dir, 'test/modules/order-items.test.ts'))).toBe(true);
    const repository = await readFile(join(dir, 'src/modules/order-items/repository.ts'), 'utf8');
    expect(repository).toContain('from order_items');
    expect(repository).not.toMatch(/__\w+__/);
    expect(await readFile(join(dir, 'migrations/0001_order_items.sql'), 'utf8')).toContain(
      'create table order_items (',
    );
    // The next module's migration comes after the ones already there.
    await writeFile(join(dir, 'migrations/0007_older.sql'), 'select 1;');
    expect((await cli(['g', 'module', 'users'])).out).toContain('migrations/0008_users.sql');
  });

  it('refuses a bad name with exit 2, an existing module and a folder that is no project with exit 1', async () => {
    for (const bad of ['Users', 'order_items', '1users', 'users-', 'a--b', 'x'.repeat(41)]) {
      const result = await cli(['generate', 'module', bad]);
      expect(result.code, bad).toBe(2);
      expect(result.err).toContain('invalid module name');
    }
    expect((await cli(['generate', 'module', 'users'])).err).toContain('not a Keelson project');
    await project();
    expect((await cli(['generate', 'module', 'users'])).code).toBe(0);
    const again = await cli(['generate', 'module', 'users']);
    expect(again).toMatchObject({ code: 1, err: expect.stringContaining('already exists') });
  });

  it('names the entity in the singular', () => {
    expect(nameForms('orders')).toMatchObject({
      plural: 'Orders',
      singular: 'Order',
      words: 'order',
    });
    expect(nameForms('order-items')).toMatchObject({ plural: 'OrderItems', singular: 'OrderItem' });
    expect(nameForms('categories').singular).toBe('Category');
    expect(nameForms('addresses').singular).toBe('Address');
    expect(nameForms('news')).toMatchObject({ plural: 'News', singular: 'NewsItem' });
  });
});

describe('keelson routes and keelson openapi', () => {
  it('prints method, path, operationId, middleware and source of every route', async () => {
    const { code, out } = await cli(['routes', join(FIXTURES, 'app.ts')], ROOT);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^METHOD\s+PATH\s+OPERATION\s+MIDDLEWARE\s+SOURCE$/);
    expect(out).toMatch(/GET\s+\/ping\s+ping\s+audit\s+app/);
    expect(out).toMatch(/POST\s+\/api\/things\s+postApiThings\s+audit, requireAuth\s+group \/api/);
    expect(out).toMatch(/GET\s+\/health\s+getHealth\s+-\s+keelson/);
    // The ids of the document, which a generated client uses: a taken automatic id is numbered.
    expect(out).toMatch(/GET\s+\/things-list\s+getThingsList\s+audit\s+app/);
    expect(out).toMatch(/GET\s+\/things\/list\s+getThingsList2\s+audit\s+app/);
    const json = await cli(['routes', 'test/cli/fixtures/app.ts', '--json'], ROOT);
    expect(JSON.parse(json.out)).toContainEqual({
      method: 'POST',
      path: '/api/things',
      operationId: 'postApiThings',
      middleware: ['audit', 'requireAuth'],
      source: 'group /api',
    });
  });

  it('writes the OpenAPI document to a file or to stdout without listening', async () => {
    const out = join(dir, 'gen/openapi.json');
    const written = await cli(['openapi', join(FIXTURES, 'app.ts'), '--out', out], ROOT);
    expect(written.code).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8'));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual([
      '/ping',
      '/things-list',
      '/things/list',
      '/api/things',
      '/health',
      '/health/ready',
      '/health/live',
    ]);
    const stdout = await cli(['openapi', join(FIXTURES, 'app.ts')], ROOT);
    expect(JSON.parse(stdout.out)).toEqual(doc);
  });

  it('fails with exit 1 naming the problem when the entry is missing or exports no App', async () => {
    const missing = await cli(['routes'], dir);
    expect(missing).toMatchObject({
      code: 1,
      err: expect.stringContaining('src/app.ts does not exist'),
    });
    const none = await cli(['openapi', join(FIXTURES, 'no-app.ts')], ROOT);
    expect(none).toMatchObject({ code: 1, err: expect.stringContaining('exports no App') });
    const noTsx = await cli(['routes', join(FIXTURES, 'app.ts')], dir);
    // Bun loads TypeScript itself: a project without tsx is fine there.
    expect(noTsx).toMatchObject(
      onBun()
        ? { code: 0, err: '' }
        : { code: 1, err: expect.stringContaining('npm install --save-dev tsx') },
    );
  });
});

describe('keelson dev', () => {
  it('runs the entry under node --watch with tsx', () => {
    expect(devArgs('/p/tsx/loader.mjs', '/p/src/main.ts')).toEqual([
      '--watch',
      '--import',
      '/p/tsx/loader.mjs',
      '/p/src/main.ts',
    ]);
  });

  it('fails with exit 1 when the entry does not exist', async () => {
    expect(await cli(['dev', 'nope.ts'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('does not exist'),
    });
  });
});
