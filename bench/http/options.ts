// The benchmark's knobs, from flags or the environment (flags win).
import { parseArgs } from 'node:util';
import { CONTENDERS, type Contender, FLOOR, ROUTES, type Route } from './contenders.js';
import { findBun } from './runtime.js';

/** What one `npm run bench` does. */
export interface Options {
  /** Rounds; each round runs every route of every contender once. @default 3 */
  readonly rounds: number;
  /** Seconds of measured load per run. @default 4 */
  readonly duration: number;
  /** Seconds of load before each measured run, not counted. @default 1 */
  readonly warmup: number;
  /** wrk connections. @default 50 */
  readonly connections: number;
  readonly contenders: readonly Contender[];
  readonly routes: readonly Route[];
  /** Only check that the contenders answer alike, measure nothing. */
  readonly checkOnly: boolean;
  /** Leave the server and wrk unpinned even on a machine with two cores or more. */
  readonly unpinned: boolean;
  /**
   * The database row: start a PostgreSQL server and run only the contenders that read
   * `GET /users/:id` from a database (on it, and on the embedded engine); route `user` by default.
   */
  readonly db: boolean;
}

/** Usage, for `--help` and bad input. */
export const USAGE = `usage: npm run bench -- [--rounds N] [--duration S] [--warmup S] [--connections N]
                      [--contenders a,b] [--routes hello,user,create] [--check] [--unpinned] [--db]
environment: ROUNDS, DURATION, WARMUP, CONNECTIONS, CONTENDERS, ROUTES, BENCH_DB=1
contenders: ${CONTENDERS.filter((c) => !c.database)
  .map((c) => (c.optional ? `(${c.name})` : c.name))
  .join(', ')}, or all
  (the ones in brackets run only when named; \`all\` leaves out the Bun ones when no Bun is found)
groups: ${[...new Set(CONTENDERS.flatMap((c) => (c.group ? [c.group] : [])))]
  .map(
    (g) =>
      `${g} (${CONTENDERS.filter((c) => c.group === g)
        .map((c) => c.name)
        .join(', ')}, plus ${FLOOR})`,
  )
  .join('; ')}
Bun: the BUN variable, else \`bun\` on the PATH, else where .ci/run installs it
with --db (needs PostgreSQL's initdb): ${CONTENDERS.filter((c) => c.database)
  .map((c) => c.name)
  .join(', ')}
routes: ${ROUTES.map((r) => r.name).join(', ')}`;

/** Reads the options from `argv` and `env`; throws with the usage on bad input. */
export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      contenders: { type: 'string' },
      routes: { type: 'string' },
      check: { type: 'boolean', default: false },
      unpinned: { type: 'boolean', default: false },
      db: { type: 'boolean', default: false },
    },
  });
  const db = values.db || env.BENCH_DB === '1';
  const contenders = CONTENDERS.filter((c) => (c.database !== undefined) === db);
  return {
    rounds: positive('rounds', values.rounds ?? env.ROUNDS, 3),
    duration: positive('duration', values.duration ?? env.DURATION, 4),
    warmup: positive('warmup', values.warmup ?? env.WARMUP, 1, true),
    connections: positive('connections', values.connections ?? env.CONNECTIONS, 50),
    contenders: pick(contenders, 'contenders', values.contenders ?? env.CONTENDERS),
    routes: pick(ROUTES, 'routes', values.routes ?? env.ROUTES ?? (db ? 'user' : undefined)),
    checkOnly: values.check,
    unpinned: values.unpinned,
    db,
  };
}

function positive(name: string, raw: string | undefined, fallback: number, zero = false): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) {
    throw new Error(
      `${name} should be a whole number${zero ? '' : ' above 0'}, got '${raw}'\n${USAGE}`,
    );
  }
  return value;
}

interface Pickable {
  readonly name: string;
  readonly optional?: boolean;
  readonly group?: string;
  readonly runtime?: string;
}

/**
 * The entries of `raw` (names, or groups: a group brings raw Fastify along as its floor), in
 * table order; the non-optional ones when `raw` is empty; with `all`, every one, the Bun ones
 * only when a Bun is found.
 */
function pick<T extends Pickable>(all: readonly T[], what: string, raw: string | undefined): T[] {
  if (raw === undefined || raw === '') return all.filter((item) => !item.optional);
  if (raw === 'all') {
    const bun = all.some((item) => item.runtime === 'bun') && findBun() !== undefined;
    return all.filter((item) => item.runtime !== 'bun' || bun);
  }
  const names = new Set<string>();
  for (const entry of raw.split(',').map((name) => name.trim())) {
    const group = all.filter((item) => item.group === entry);
    if (group.length > 0) {
      for (const item of group) names.add(item.name);
      if (all.some((item) => item.name === FLOOR)) names.add(FLOOR);
    } else if (all.some((item) => item.name === entry)) {
      names.add(entry);
    } else {
      throw new Error(`unknown ${what} entry '${entry}'\n${USAGE}`);
    }
  }
  return all.filter((item) => names.has(item.name));
}
