// `keelson new` on Bun, with the commands it prints: this checkout packed into a tarball, a new
// project depending on it, `bun install`, `bun --bun run test`, and `bun --bun run start` serving
// /health from a Bun process, then stopping on SIGTERM. Part of `npm run test:bun` (needs dist/:
// `npm run build` first).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp } from '../support/clean-up.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const BUN = process.execPath;

let tmp: string | undefined;
let server: ChildProcess | undefined;

afterAll(() => cleanUp(tmp, server));

/** The executables of the processes in `server`'s process group. */
async function groupExecutables(): Promise<string[]> {
  const { stdout } = await run('ps', ['-o', 'pid=', '-g', String(server!.pid)]);
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/exe`);
      } catch {
        return '';
      }
    });
}

describe.runIf('Bun' in globalThis)('keelson new on Bun', () => {
  it('prints the Bun commands, and the project installs, passes its tests and serves with them', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    tmp = await mkdtemp(join(tmpdir(), 'keelson-new-bun-'));
    await run('npm', ['pack', '--pack-destination', tmp], { cwd: ROOT, maxBuffer: 1 << 25 });
    const tarball = (await readdir(tmp)).find((f) => f.endsWith('.tgz'))!;
    const created = await run(
      BUN,
      [CLI, 'new', 'bun-api', '--keelson', `file:${join(tmp, tarball)}`],
      {
        cwd: tmp,
      },
    );
    expect(created.stdout).toContain('bun install && bun --bun run start');
    expect(created.stdout).toContain('bun --bun run test');
    const project = join(tmp, 'bun-api');

    await run(BUN, ['install', '--no-progress'], { cwd: project });
    const tested = await run(BUN, ['--bun', 'run', 'test'], { cwd: project });
    expect(tested.stdout).toMatch(/Tests\s+.*4 passed/);

    server = spawn(BUN, ['--bun', 'run', 'start'], {
      cwd: project,
      detached: true,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (m) resolve(m[1]!);
      };
      server!.stdout!.on('data', onData);
      server!.stderr!.on('data', onData);
      server!.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'UP', checks: { database: 'UP' } });
    // The script's `node` is Bun: no Node.js process serves.
    const executables = await groupExecutables();
    expect(executables.length).toBeGreaterThan(0);
    expect(executables.every((exe) => exe === BUN)).toBe(true);

    // To `bun run` alone, as a container runtime signals its first process: `bun run` passes it
    // on (a signal to the whole group can reach the service twice: docs/guide/bun.md).
    const exited = new Promise<number | null>((resolve) => server!.once('close', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received: shutting down');
    expect(output).toContain('bun-api stopped');
  }, 300_000);
});
