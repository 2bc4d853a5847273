#!/usr/bin/env node
/**
 * The keelson command: `new`, `generate`, `routes`, `openapi`, `dev`, `db`. Exit codes: 0 done,
 * 1 failed, 2 wrong usage.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { dbCommand } from './db.js';
import { devCommand } from './dev.js';
import { generateCommand } from './generate.js';
import { openapiCommand, routesCommand } from './inspect.js';
import { newCommand } from './new.js';
import { type CliIo, UsageError } from './usage.js';

/** The top-level help. */
export const HELP = `Usage: keelson <command> [options]

Commands:
  new <dir>                  create a runnable project
  generate module <name>     add a CRUD module with its test (alias: g)
  routes [entry]             print the route table of the App (default src/app.ts)
  openapi [entry] [--out f]  write the OpenAPI document without starting the server
  dev [entry]                run the service with restart on change (default src/main.ts)
  db migrate                 apply the pending migrations (DATABASE_URL, else the embedded one)
  db status                  print each migration with its state; exit 1 if one changed
  db new <name>              write migrations/<next number>_<name>.sql

keelson <command> --help shows a command's options.`;

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  new: newCommand,
  generate: generateCommand,
  g: generateCommand,
  routes: routesCommand,
  openapi: openapiCommand,
  dev: devCommand,
  db: dbCommand,
};

/** Runs the command line `argv` (without node and the script); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { VERSION } = await import('../version.js');
    io.out(VERSION);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
    return await command(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(
        `keelson: ${err.message}\nRun \`keelson ${command ? `${name} ` : ''}--help\` for usage.`,
      );
      return 2;
    }
    io.err(`keelson ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** The io of the real command: the process's folder and streams. */
export const processIo: CliIo = {
  cwd: process.cwd(),
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

if (process.argv[1] && fileURLToPath(import.meta.url) === (await realpathOf(process.argv[1]))) {
  const code = await runCli(process.argv.slice(2), processIo);
  // An imported App may hold handles open (timers, pools): the command is done, so exit.
  process.stdout.write('', () => process.exit(code));
}

async function realpathOf(path: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(path).catch(() => path);
}
