// The servers under test and the routes they all serve.
import { fileURLToPath } from 'node:url';
import type { Runtime } from './runtime.js';

/** One server of the benchmark: a standalone file under bench/servers/. */
export interface Contender {
  /** Short name, used in filters and in the results file. */
  readonly name: string;
  /** What the table calls it. */
  readonly label: string;
  /** Absolute path of the server file, run with plain `node` or `bun` (no loader). */
  readonly file: string;
  /** What runs the server file. @default 'node' */
  readonly runtime?: Runtime;
  /**
   * A group the contender belongs to: `--contenders <group>` runs the group, plus raw Fastify
   * on Node as the usual floor.
   */
  readonly group?: string;
  /**
   * Answers through `Bun.serve`: the check then holds it to answers with no `Connection` header,
   * which node:http sends (on Bun too), so a Keelson that ignored `engine: 'bun'` fails it.
   */
  readonly bunServe?: boolean;
  /** True when the server logs each request, sends CORS headers and validates with Zod. */
  readonly features: boolean;
  /**
   * True when the server logs to its stdout, as a deployed service does: the bench then points
   * its stdout at the log file instead of passing LOG_FILE.
   */
  readonly logsToStdout?: boolean;
  /** Environment variables the server is started with (variants of one server file). */
  readonly env?: Readonly<Record<string, string>>;
  /** Left out of a run unless named in `--contenders` (or `--contenders all`). */
  readonly optional?: boolean;
  /**
   * Reads `GET /users/:id` from a database: `server` (the bench's PostgreSQL, DATABASE_URL) or
   * `embedded` (PGlite, DB_DATA_DIR). Such contenders run only with `--db`, and only they do.
   */
  readonly database?: 'server' | 'embedded';
}

/** One of the three routes every contender serves. */
export interface Route {
  /** Short name, used in filters and in the results file. */
  readonly name: string;
  /** What the table calls it. */
  readonly label: string;
  /** The path wrk requests. */
  readonly path: string;
  /** A wrk Lua script for the request, when it is not a plain GET. */
  readonly script?: string;
}

const server = (file: string) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url));

/** Every contender, the feature-equal ones first, then the floors. */
export const CONTENDERS: readonly Contender[] = [
  {
    name: 'keelson',
    label: 'Keelson (production defaults)',
    file: server('keelson.mjs'),
    features: true,
    logsToStdout: true,
  },
  {
    name: 'keelson-1000',
    label: 'Keelson, 1,000 more routes',
    file: server('keelson.mjs'),
    features: true,
    logsToStdout: true,
    env: { EXTRA_ROUTES: '1000' },
  },
  {
    name: 'keelson-mw10',
    label: 'Keelson, 10 no-op middleware',
    file: server('keelson.mjs'),
    features: true,
    logsToStdout: true,
    env: { MIDDLEWARE: '10' },
  },
  {
    name: 'keelson-dev',
    label: 'Keelson (development defaults)',
    file: server('keelson-dev.mjs'),
    features: true,
    logsToStdout: true,
  },
  {
    name: 'fastify',
    label: 'Fastify 5 by hand',
    file: server('fastify.mjs'),
    features: true,
  },
  {
    name: 'nest',
    label: 'NestJS on Fastify',
    file: server('nest.mjs'),
    features: true,
    optional: true,
  },
  {
    name: 'hono',
    label: 'Hono on node-server',
    file: server('hono.mjs'),
    features: true,
    optional: true,
  },
  {
    name: 'express',
    label: 'Express 5',
    file: server('express.mjs'),
    features: true,
    optional: true,
  },
  {
    name: 'keelson-bun',
    label: 'Keelson on Bun, Bun.serve engine',
    file: server('keelson.mjs'),
    runtime: 'bun',
    group: 'bun',
    bunServe: true,
    features: true,
    logsToStdout: true,
    env: { ENGINE: 'bun' },
    optional: true,
  },
  {
    name: 'keelson-on-bun',
    label: 'Keelson on Bun, Fastify engine',
    file: server('keelson.mjs'),
    runtime: 'bun',
    group: 'bun',
    features: true,
    logsToStdout: true,
    optional: true,
  },
  {
    name: 'elysia',
    label: 'Elysia 1.4 on Bun',
    file: server('elysia.mjs'),
    runtime: 'bun',
    group: 'bun',
    bunServe: true,
    features: true,
    optional: true,
  },
  {
    name: 'keelson-db',
    label: 'Keelson, db.sql on PostgreSQL',
    file: server('keelson-db.mjs'),
    features: true,
    logsToStdout: true,
    database: 'server',
  },
  {
    name: 'fastify-pg',
    label: 'Fastify 5 + pg by hand',
    file: server('fastify-pg.mjs'),
    features: true,
    database: 'server',
  },
  {
    name: 'keelson-db-embedded',
    label: 'Keelson, db.sql on PGlite',
    file: server('keelson-db.mjs'),
    features: true,
    logsToStdout: true,
    database: 'embedded',
  },
  {
    name: 'fastify-raw',
    label: 'raw Fastify 5 (no features)',
    file: server('fastify-raw.mjs'),
    features: false,
  },
  {
    name: 'node-http',
    label: 'bare node:http (no features)',
    file: server('node-http.mjs'),
    features: false,
  },
  {
    name: 'elysia-bare',
    label: 'bare Elysia on Bun (no features)',
    file: server('elysia-bare.mjs'),
    runtime: 'bun',
    group: 'bun',
    bunServe: true,
    features: false,
    optional: true,
  },
];

/** The three routes, in table order. */
export const ROUTES: readonly Route[] = [
  { name: 'hello', label: 'GET /hello', path: '/hello' },
  { name: 'user', label: 'GET /users/:id', path: '/users/42' },
  {
    name: 'create',
    label: 'POST /users',
    path: '/users',
    script: fileURLToPath(new URL('./post-user.lua', import.meta.url)),
  },
];

/** The contender the ratios are taken against first: Fastify with the same features. */
export const BASELINE = 'fastify';
/** The second reference: Fastify with no features. */
export const FLOOR = 'fastify-raw';
/** The reference on Bun: Elysia with the same features. */
export const BUN_BASELINE = 'elysia';
/** The reference of the `--db` row: Fastify with the same features and `pg` by hand. */
export const DB_BASELINE = 'fastify-pg';
