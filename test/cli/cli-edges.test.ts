import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkModuleName, checkServiceName, nameForms } from '../../src/cli/names.js';
import { defaultKeelsonSpec, projectPackage } from '../../src/cli/new.js';
import { runCliIn } from './run-cli.js';

// The keelson command at its edges: the new project's package.json in full, where `new` writes
// and what it says, and the limits of names.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keelson-cli-edges-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (argv: string[], cwd = dir) => runCliIn(argv, cwd);

describe('keelson new', () => {
  it('writes a package.json whose tool versions are the ones keelson is built with', async () => {
    const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    expect(JSON.parse(projectPackage('shop', `^${own.version}`))).toStrictEqual({
      name: 'shop',
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: own.engines.node },
      scripts: {
        start: 'node --import tsx src/main.ts',
        dev: 'keelson dev',
        test: 'vitest run',
        typecheck: 'tsc --noEmit',
        routes: 'keelson routes',
        openapi: 'keelson openapi --out openapi.json',
      },
      dependencies: {
        keelson: `^${own.version}`,
        '@electric-sql/pglite': own.devDependencies['@electric-sql/pglite'],
        pg: own.devDependencies.pg,
        tsx: own.devDependencies.tsx,
        zod: own.devDependencies.zod,
      },
      devDependencies: {
        '@types/node': own.devDependencies['@types/node'],
        typescript: own.devDependencies.typescript,
        vitest: own.devDependencies.vitest,
      },
    });
    expect(projectPackage('shop', 'file:k.tgz').endsWith('}\n')).toBe(true);
  });

  it('writes into a new nested folder or an empty one, and says how to go on', async () => {
    const nested = await cli(['new', 'a/b/shop']);
    expect(nested.code).toBe(0);
    expect(existsSync(join(dir, 'a/b/shop/package.json'))).toBe(true);
    expect(nested.out).toContain('  cd a/b/shop\n');
    expect(nested.out).toMatch(/^created shop in .*a\/b\/shop \(\d+ files\)/);
    const empty = join(dir, 'empty-one');
    await mkdir(empty);
    const here = await cli(['new', '.'], empty);
    expect(here.code).toBe(0);
    expect(here.out).toContain('  cd .\n');
    expect(existsSync(join(empty, 'src/app.ts'))).toBe(true);
  });

  it('depends on the copy it runs from when that is not the registry, decided offline', async () => {
    // A git checkout (this one): the project links to it, and says so.
    const made = await cli(['new', 'linked']);
    const spec = `file:${relative(join(dir, 'linked'), ROOT)}`;
    expect(JSON.parse(await readFile(join(dir, 'linked/package.json'), 'utf8'))).toMatchObject({
      dependencies: { keelson: spec },
    });
    expect(made.out).toContain(`keelson is ${spec}: the copy this command runs from`);
    // Installed from a tarball (npx --package=./keelson.tgz writes such a package.json).
    const installed = async (keelson: string) => {
      const home = await mkdtemp(join(dir, 'npx-'));
      await mkdir(join(home, 'node_modules/keelson'), { recursive: true });
      await writeFile(join(home, 'package.json'), JSON.stringify({ dependencies: { keelson } }));
      await writeFile(join(home, 'node_modules/keelson/package.json'), '{"version":"9.9.9"}');
      return join(home, 'node_modules/keelson/');
    };
    const fromTarball = await installed('file:../dl/keelson-9.9.9.tgz');
    expect(defaultKeelsonSpec(join(dir, 'shop'), fromTarball)).toBe('file:../dl/keelson-9.9.9.tgz');
    // From the registry: the published range.
    expect(defaultKeelsonSpec(join(dir, 'shop'), await installed('^9.9.0'))).toBe('^9.9.9');
  });

  it('answers a missing folder or an empty --keelson with exit 2', async () => {
    expect(await cli(['new'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('the project folder is missing: keelson new <dir>'),
    });
    expect(await cli(['new', 'x', '--keelson', ''])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--keelson needs a version or a file: spec'),
    });
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});

describe('names', () => {
  it('take module names up to 40 characters and service names up to 60', () => {
    expect(checkModuleName('a'.repeat(40))).toBe('a'.repeat(40));
    expect(() => checkModuleName('a'.repeat(41))).toThrow(/invalid module name/);
    expect(() => checkModuleName('')).toThrow(
      'a module name is required, e.g. `keelson generate module users`',
    );
    expect(checkServiceName('s'.repeat(60))).toBe('s'.repeat(60));
    expect(() => checkServiceName('s'.repeat(61))).toThrow(
      `invalid service name "${'s'.repeat(61)}": use lower-case words of letters and digits joined by hyphens (e.g. orders-api); pass --name when the folder's name is not one`,
    );
  });

  it('make the last word singular for the entity, or add Item when it cannot', () => {
    const table: [string, string, string][] = [
      ['users', 'User', 'user'],
      ['categories', 'Category', 'category'],
      ['ies', 'Ie', 'ie'],
      ['boxes', 'Box', 'box'],
      ['churches', 'Church', 'church'],
      ['dishes', 'Dish', 'dish'],
      ['classes', 'Class', 'class'],
      ['quizzes', 'Quiz', 'quiz'],
      ['bus', 'BusItem', 'bus item'],
      ['analysis', 'AnalysisItem', 'analysis item'],
      ['as', 'AsItem', 'as item'],
      ['gas', 'Ga', 'ga'],
      ['status', 'StatusItem', 'status item'],
      ['order-items', 'OrderItem', 'order item'],
      ['boxes-taxes', 'BoxesTax', 'boxes tax'],
      ['boxsets', 'Boxset', 'boxset'],
      ['taxesets', 'Taxeset', 'taxeset'],
    ];
    for (const [name, singular, words] of table) {
      expect(nameForms(name), name).toMatchObject({ singular, words });
    }
  });
});

describe('the command line', () => {
  it('prints help for -h and help, and the version for --version and -v', async () => {
    const { VERSION } = await import('../../src/index.js');
    for (const flag of ['-h', 'help', '--help']) {
      expect(await cli([flag])).toMatchObject({
        code: 0,
        out: expect.stringContaining('new <dir>'),
      });
    }
    for (const flag of ['--version', '-v'])
      expect(await cli([flag])).toMatchObject({ code: 0, out: VERSION });
    expect(await cli(['generate'])).toMatchObject({
      code: 2,
      err: 'keelson: what to generate is missing: keelson generate module <name>\nRun `keelson generate --help` for usage.',
    });
  });

  it('lists the files generate wrote, and needs both package.json and src/', async () => {
    await writeFile(join(dir, 'package.json'), '{}');
    expect((await cli(['generate', 'module', 'users'])).code).toBe(1);
    await mkdir(join(dir, 'src'));
    const made = await cli(['generate', 'module', 'users']);
    expect(made.code).toBe(0);
    expect(made.out).toMatch(
      /^created\n {2}migrations\/0001_users\.sql\n {2}src\/modules\/users\//,
    );
    await rm(join(dir, 'package.json'));
    expect((await cli(['generate', 'module', 'orders'])).code).toBe(1);
  });
});

describe('loading the App of a JavaScript entry', () => {
  // Enough of an App for `keelson routes`: built, with a route table and a document.
  const fake = `{ ready: async () => {}, openapi: async () => ({ paths: {} }), routes: [], middleware: [] }`;
  const entries: [string, string, number, string][] = [
    ['app.mjs', `export const app = ${fake};`, 0, 'METHOD'],
    ['default.mjs', `export default ${fake};`, 0, 'METHOD'],
    ['factory.mjs', `export function createApp() { return ${fake}; }`, 0, 'METHOD'],
    ['default-factory.mjs', `export default () => (${fake});`, 0, 'METHOD'],
    [
      'no-routes.mjs',
      `export const app = { ready() {}, openapi() {}, routes: {} };`,
      1,
      'exports no App',
    ],
    ['no-openapi.mjs', `export const app = { ready() {}, routes: [] };`, 1, 'exports no App'],
    ['no-ready.mjs', `export const app = { openapi() {}, routes: [] };`, 1, 'exports no App'],
    ['null.mjs', 'export const app = null; export default null;', 1, 'exports no App'],
    ['not-app.mjs', 'export function createApp() { return 5; }', 1, 'exports no App'],
  ];
  it('finds it as app, default, createApp() or a default factory, and says when there is none', async () => {
    for (const [file, source, code, says] of entries) {
      await writeFile(join(dir, file), source);
      const r = await cli(['routes', file]);
      expect(r.code, file).toBe(code);
      expect(code === 0 ? r.out : r.err, file).toContain(says);
    }
  });

  it('names the entry contract when createApp() needs arguments it is not given', async () => {
    await writeFile(
      join(dir, 'needs-options.mjs'),
      `export function createApp(options) { return { ...${fake}, secret: options.cookieSecret }; }`,
    );
    const r = await cli(['routes', 'needs-options.mjs']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('createApp() threw when called with no arguments');
    expect(r.err).toContain('(it declares 1 parameter(s))');
    // The engine's own words: "reading 'cookieSecret'" on V8, "evaluating 'options.cookieSecret'" on Bun.
    expect(r.err).toMatch(/(reading|evaluating) '(options\.)?cookieSecret'/);
    expect(r.err).toContain('a `createApp()` that takes no arguments');
    // Optional arguments are fine: the factory is called, and its App listed.
    await writeFile(
      join(dir, 'optional.mjs'),
      `export function createApp(options = {}) { return { ...${fake}, o: options }; }`,
    );
    expect((await cli(['routes', 'optional.mjs'])).code).toBe(0);
  });

  it('gives the App a database in memory while loading it, and puts DATABASE_URL back', async () => {
    const seen = globalThis as { seenDatabaseUrl?: string };
    await writeFile(
      join(dir, 'db-app.mjs'),
      `export function createApp() { globalThis.seenDatabaseUrl = process.env.DATABASE_URL; return ${fake}; }`,
    );
    const before = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgres://svc@db.example:5432/prod';
    try {
      expect((await cli(['routes', 'db-app.mjs'])).code).toBe(0);
      expect(seen.seenDatabaseUrl).toBe('memory://');
      expect(process.env.DATABASE_URL).toBe('postgres://svc@db.example:5432/prod');
      delete process.env.DATABASE_URL;
      await cli(['openapi', 'db-app.mjs']);
      expect(seen.seenDatabaseUrl).toBe('memory://');
      expect('DATABASE_URL' in process.env).toBe(false);
    } finally {
      if (before === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = before;
    }
  });

  it('writes the document into new folders and says where', async () => {
    await writeFile(join(dir, 'app.mjs'), `export const app = ${fake};`);
    const r = await cli(['openapi', 'app.mjs', '--out', 'deep/er/doc.json']);
    expect(r).toMatchObject({ code: 0, err: `wrote ${join(dir, 'deep/er/doc.json')}` });
    expect(await readFile(join(dir, 'deep/er/doc.json'), 'utf8')).toBe('{\n  "paths": {}\n}\n');
    expect((await cli(['openapi', 'app.mjs'])).out).toBe('{\n  "paths": {}\n}');
  });
});
