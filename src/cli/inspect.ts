/**
 * `keelson routes` and `keelson openapi`: the route table and the OpenAPI document of a
 * project's App, read by importing it without listening.
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { formatRouteTable, routeRows } from '../docs/route-table.js';
import { checkBreaking } from './check-breaking.js';
import { loadApp } from './load-app.js';
import { type CliIo, parse, stringOption } from './usage.js';

/** The entry both commands read by default. */
export const DEFAULT_APP_ENTRY = 'src/app.ts';

/** The help of `keelson routes`. */
export const ROUTES_HELP = `Usage: keelson routes [entry] [--json]

Prints the routes of the App that [entry] (default ${DEFAULT_APP_ENTRY}) exports as \`app\`,
as the default export, or through \`createApp()\` (called with no arguments): one line per
operation of its OpenAPI document (HEAD ones included) with method, path, operationId,
middleware and source, and a "(not documented)" line for a route the document leaves out. The
App is built but does not listen.

Options:
  --json       one JSON array instead of the table
  -h, --help   this help`;

/** The help of `keelson openapi`. */
export const OPENAPI_HELP = `Usage: keelson openapi [entry] [--out <file>] [--version <name>] [--check-breaking <base.json>]

Writes the OpenAPI 3.1 document of the App that [entry] (default ${DEFAULT_APP_ENTRY}) exports
(as for keelson routes), without starting the server: to <file>, or to stdout.

Options:
  --out <file>        where to write the document (folders are created)
  --version <name>    the document of one API version (app.group(prefix, { version }))
  --check-breaking <base.json>
                      compare the document with a saved one instead of writing it: one line
                      per change (BREAKING or non-breaking, operation, JSON location); exit 1 on
                      a breaking change, unless info.version raises the major version
  -h, --help          this help`;

/** Runs `keelson routes`; returns the exit code. */
export async function routesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parse(argv, { json: { type: 'boolean' } }, 1);
  if (args.values.help) {
    io.out(ROUTES_HELP);
    return 0;
  }
  const app = await loadApp(io.cwd, args.positionals[0] ?? DEFAULT_APP_ENTRY);
  const rows = routeRows(app.routes, app.middleware, await app.openapi());
  io.out(args.values.json ? JSON.stringify(rows, null, 2) : formatRouteTable(rows));
  return 0;
}

/** Runs `keelson openapi`; returns the exit code. */
export async function openapiCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parse(
    argv,
    { out: { type: 'string' }, version: { type: 'string' }, 'check-breaking': { type: 'string' } },
    1,
  );
  if (args.values.help) {
    io.out(OPENAPI_HELP);
    return 0;
  }
  const app = await loadApp(io.cwd, args.positionals[0] ?? DEFAULT_APP_ENTRY);
  const doc = await app.openapi(stringOption(args, 'version'));
  const base = stringOption(args, 'check-breaking');
  if (base !== undefined) return checkBreaking(doc, base, io);
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  const out = stringOption(args, 'out');
  if (out === undefined) {
    io.out(json.trimEnd());
    return 0;
  }
  const file = resolve(io.cwd, out);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, json);
  io.err(`wrote ${file}`);
  return 0;
}
