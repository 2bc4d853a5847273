import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./fixtures/child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** How a child process ended and what it wrote. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the fixture with `args` under tsx; stdout is a pipe unless `stdout` is a file's fd. */
export function startChild(args: readonly string[], stdout?: number, env?: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', stdout ?? 'pipe', 'pipe'],
  });
}

/** Collects everything `child` writes until it exits. */
export function finished(child: ChildProcess): Promise<ChildResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the fixture with `args` to the end. */
export function runChild(...args: string[]): Promise<ChildResult> {
  return finished(startChild(args));
}

/** The lines of `output`, without the empty one after the last newline. */
export function linesOf(output: string): string[] {
  const lines = output.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
