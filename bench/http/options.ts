// The benchmark's knobs, from flags or the environment (flags win).
import { parseArgs } from 'node:util';
import { CONTENDERS, type Contender, ROUTES, type Route } from './contenders.js';

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
  (the ones in brackets run only when named)
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

function pick<T extends { name: string; optional?: boolean }>(
  all: readonly T[],
  what: string,
  raw: string | undefined,
): T[] {
  if (raw === undefined || raw === '') return all.filter((item) => !item.optional);
  if (raw === 'all') return [...all];
  const names = raw.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!all.some((item) => item.name === name)) {
      throw new Error(`unknown ${what} entry '${name}'\n${USAGE}`);
    }
  }
  return all.filter((item) => names.includes(item.name));
}
