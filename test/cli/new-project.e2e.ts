// `keelson new` end to end, as a user gets it: this checkout packed into a tarball, a new project
// depending on it, `npm install`, the project's tests, `npm start` answering /health and keeping
// a note in its embedded database across a restart, then `keelson generate module orders` wired
// in by hand, its tests passing too, and `keelson db` applying its migration.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp } from '../support/clean-up.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

let tmp: string | undefined;
let server: ChildProcess | undefined;

afterAll(() => cleanUp(tmp, server));

async function npm(cwd: string, ...args: string[]) {
  return run('npm', args, { cwd, maxBuffer: 32 * 1024 * 1024 });
}

/** Stops the service's process group and waits until every process of it has let go of the pipes. */
async function stop(): Promise<void> {
  const exited = new Promise((resolve) => server!.once('close', resolve));
  process.kill(-server!.pid!, 'SIGTERM');
  await exited;
}

/** Starts `npm start` in its own process group; resolves with the URL it logs. */
function start(cwd: string): Promise<{ url: string; output: () => string }> {
  const child = spawn('npm', ['start'], {
    cwd,
    detached: true,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let text = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) resolve({ url: m[1]!, output: () => text });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${text}`)));
  });
}

describe('keelson new', () => {
  it('creates a project that installs, passes its tests, serves /health and takes a generated module', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    tmp = await mkdtemp(join(tmpdir(), 'keelson-new-'));
    await npm(ROOT, 'pack', '--pack-destination', tmp);
    const tarball = (await readdir(tmp)).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const created = await run(
      'node',
      [CLI, 'new', 'orders-api', '--keelson', `file:${join(tmp, tarball!)}`],
      {
        cwd: tmp,
      },
    );
    expect(created.stdout).toContain('npm install && npm start');
    const project = join(tmp, 'orders-api');
    expect((await readdir(project)).sort()).toEqual([
      '.dockerignore',
      '.env.example',
      '.gitignore',
      'Dockerfile',
      'README.md',
      'migrations',
      'package.json',
      'src',
      'test',
      'tsconfig.json',
      'vitest.config.ts',
    ]);
    // A folder with something in it is refused, and nothing is written.
    await expect(run('node', [CLI, 'new', 'orders-api'], { cwd: tmp })).rejects.toMatchObject({
      code: 1,
    });

    await npm(project, 'install', ...NPM_FLAGS);
    const tested = await npm(project, 'test');
    expect(tested.stdout).toMatch(/Tests\s+.*4 passed/);
    await npm(project, 'run', 'typecheck');

    const first = await start(project);
    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'UP',
      service: 'orders-api',
      checks: { database: 'UP' },
    });
    const note = await fetch(`${first.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept' }),
    });
    expect(note.status).toBe(201);
    await stop();
    expect(first.output()).toContain('migration 0001_notes.sql applied');
    expect(first.output()).toContain('orders-api stopped');
    expect(existsSync(join(project, '.keelson/db'))).toBe(true);

    // The embedded database is on disk: the note is there after a restart, nothing re-applied.
    const second = await start(project);
    const listed = await fetch(`${second.url}/notes`);
    expect(await listed.json()).toMatchObject({ data: [{ name: 'kept' }], next: null });
    await stop();
    expect(second.output()).not.toContain('migration 0001_notes.sql applied');

    const generated = await run(
      join(project, 'node_modules/.bin/keelson'),
      ['generate', 'module', 'orders'],
      {
        cwd: project,
      },
    );
    const [importLine, useLine] = generated.stdout
      .trim()
      .split('\n')
      .slice(-2)
      .map((l) => l.trim());
    expect(importLine).toBe("import { OrdersModule } from './modules/orders/index.js';");
    expect(useLine).toBe('app.use(new OrdersModule(db));');
    const appFile = join(project, 'src/app.ts');
    const source = await readFile(appFile, 'utf8');
    await writeFile(
      appFile,
      `${importLine}\n${source.replace('app.use(new NotesModule(db));', `app.use(new NotesModule(db));\n  ${useLine}`)}`,
    );
    const again = await npm(project, 'test');
    expect(again.stdout).toMatch(/Tests\s+.*7 passed/);
    await npm(project, 'run', 'typecheck');
    const routes = await run(join(project, 'node_modules/.bin/keelson'), ['routes'], {
      cwd: project,
    });
    expect(routes.stdout).toMatch(
      /GET\s+\/orders\/:id\s+getOrder\s+databaseScope\s+OrdersController/,
    );
    const keelson = (...args: string[]) =>
      run(join(project, 'node_modules/.bin/keelson'), args, { cwd: project });
    expect((await keelson('db', 'status')).stdout).toMatch(
      /^applied +0001_notes\.sql .*\n(?:.*\n)*pending +0002_orders\.sql$/m,
    );
    expect((await keelson('db', 'migrate')).stdout).toContain('applied 0002_orders.sql');
  });
});
