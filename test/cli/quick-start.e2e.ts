// The README's quick start from a checkout, as a user runs it: a fresh `git clone` of this
// repository, built, `npx --yes --package=. keelson new ../orders-api` (the package is not on the
// registry, so the project depends on the clone), then the project's `npm install` and
// `npm start` answering /health. The clone shares this checkout's node_modules (a symlink):
// `npm ci` there would take minutes and test npm, not keelson.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp } from '../support/clean-up.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

let tmp: string | undefined;
let server: ChildProcess | undefined;

afterAll(() => cleanUp(tmp, server));

function sh(cwd: string, command: string, args: string[]) {
  return run(command, args, { cwd, maxBuffer: 32 * 1024 * 1024 });
}

/** Starts `npm start` in its own process group; resolves with the URL it logs. */
function start(cwd: string): Promise<string> {
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
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${text}`)));
  });
}

describe('the quick start from a checkout', () => {
  it('clone, build, npx --yes --package=. keelson new, npm install, npm start', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'keelson-quick-'));
    const clone = join(tmp, 'keelson');
    await sh(tmp, 'git', ['clone', '--quiet', ROOT, clone]);
    await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    await sh(clone, 'npm', ['run', 'build']);

    const created = await sh(clone, 'npx', [
      '--yes',
      '--package=.',
      'keelson',
      'new',
      '../orders-api',
    ]);
    expect(created.stdout).toContain('npm install && npm start');
    expect(created.stdout).toContain('keelson is file:../keelson: the copy this command runs from');
    const project = join(tmp, 'orders-api');
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(pkg.dependencies.keelson).toBe('file:../keelson');

    await sh(project, 'npm', ['install', ...NPM_FLAGS]);
    const url = await start(project);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'UP', service: 'orders-api' });
    const exited = new Promise((resolve) => server!.once('close', resolve));
    process.kill(-server!.pid!, 'SIGTERM');
    await exited;
  });
});
