/**
 * `keelson dev`: the service under Node's `--watch` with tsx, restarted on every change.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { type CliIo, parse } from './usage.js';

/** The entry `keelson dev` runs by default. */
export const DEFAULT_MAIN_ENTRY = 'src/main.ts';

/** The help of `keelson dev`. */
export const DEV_HELP = `Usage: keelson dev [entry]

Runs [entry] (default ${DEFAULT_MAIN_ENTRY}) with node --watch and tsx: the service restarts when
a file it imports changes. NODE_ENV defaults to development (text logs, docs, the dev panel at
/_keelson). Ctrl-C stops it.

Options:
  -h, --help   this help`;

/** The node arguments that run `entry` under watch with the project's tsx. */
export function devArgs(tsxLoader: string, entry: string): string[] {
  return ['--watch', '--import', tsxLoader, entry];
}

/** Runs `keelson dev` until the watched process ends; returns its exit code. */
export async function devCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parse(argv, {}, 1);
  if (args.values.help) {
    io.out(DEV_HELP);
    return 0;
  }
  const entry = resolve(io.cwd, args.positionals[0] ?? DEFAULT_MAIN_ENTRY);
  if (!existsSync(entry)) {
    io.err(`${entry} does not exist: pass the file that starts the service`);
    return 1;
  }
  let loader: string;
  try {
    loader = createRequire(join(io.cwd, 'package.json')).resolve('tsx');
  } catch {
    io.err('keelson dev needs tsx in the project: npm install --save-dev tsx');
    return 1;
  }
  const child = spawn(process.execPath, devArgs(loader, entry), {
    cwd: io.cwd,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
  });
  // The terminal sends Ctrl-C to the whole group; a SIGTERM sent to this process is passed on.
  let stopped = false;
  const forward = (signal: NodeJS.Signals) => {
    stopped = true;
    child.kill(signal);
  };
  process.on('SIGTERM', forward);
  process.on('SIGINT', () => {});
  return new Promise((done) => {
    child.on('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      // Stopped on request is a normal end; a crash of the watcher itself is not.
      done(stopped ? 0 : (code ?? (signal ? 1 : 0)));
    });
  });
}
