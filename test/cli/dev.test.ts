// `keelson dev` as a real process: the service runs under node --watch with tsx, restarts when a
// file it imports changes, and stops when the command gets SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('keelson dev', () => {
  it('restarts the service when an imported file changes and stops on SIGTERM', async () => {
    dir = await mkdtemp(join(tmpdir(), 'keelson-dev-'));
    await writeFile(join(dir, 'value.ts'), "export const value: string = 'first';\n");
    await writeFile(
      join(dir, 'main.ts'),
      "import { value } from './value.ts';\nconsole.log('running ' + value + ' in ' + process.env.NODE_ENV);\nsetInterval(() => {}, 1000);\n",
    );
    const { NODE_ENV: _, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'dev', join(dir, 'main.ts')],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const check = () => pattern.test(output) && resolve();
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        child.on('exit', () => reject(new Error(`keelson dev exited:\n${output}`)));
        check();
      });
    try {
      await seen(/running first in development/);
      await writeFile(join(dir, 'value.ts'), "export const value: string = 'second';\n");
      await seen(/running second in development/);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
