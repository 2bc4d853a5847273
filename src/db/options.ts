/**
 * The options of `database()`, their defaults, and their checks.
 * @module
 */
import type { Logger } from '../logger/index.js';
import type { ConstraintHandler } from './errors.js';
import type { IsolationLevel } from './tx.js';
import type { Int8Mode } from './values.js';

/** Connection pool settings (node-postgres; the embedded engine has one connection). */
export interface PoolOptions {
  /** Connections at most. @default 10 */
  max?: number;
  /** An idle connection closes after this long, in ms. @default 10000 */
  idleTimeoutMs?: number;
  /** How long a query waits for a connection (or the embedded engine's turn): then 503. @default 5000 */
  connectTimeoutMs?: number;
}

/** What `database()` takes. Every field is optional. */
export interface DatabaseOptions {
  /**
   * `postgres://user:pass@host:5432/db` for a PostgreSQL server (node-postgres); `memory://` for
   * an embedded database in memory; unset or empty for an embedded database in `dataDir`.
   * @example database({ url: process.env.DATABASE_URL })
   */
  url?: string | undefined;
  /** Where the embedded database is stored, relative to the working directory. @default '.keelson/db' */
  dataDir?: string;
  /**
   * The folder of `.sql` migrations: relative to the working directory, absolute, or a `file:`
   * URL (`new URL('../migrations', import.meta.url)`). Unset: no migrations.
   */
  migrations?: string | URL;
  /** Apply pending migrations when the app starts (before the port opens). @default true */
  migrate?: boolean;
  /** Pool settings. */
  pool?: PoolOptions;
  /** Every statement is cancelled after this long (503); 0 for no limit. @default 0 */
  statementTimeoutMs?: number;
  /** A query slower than this is logged at warn with the request id. @default 500 */
  slowQueryMs?: number;
  /** `camelCase` turns `created_at` into `createdAt` in results. @default 'as-is' */
  columns?: 'as-is' | 'camelCase';
  /** `int8` values (`count(*)`, `bigserial`) as exact strings, numbers, or bigints. @default 'string' */
  int8?: Int8Mode;
  /** The isolation level of `db.transactional()` and `db.transaction()`; unset: the server's. */
  isolation?: IsolationLevel;
  /**
   * Named constraints mapped to the error the client should see.
   * @example { users_username_key: () => unprocessable('username has already been taken') }
   */
  constraints?: Record<string, ConstraintHandler>;
  /** How often an idle outbox relay looks for due events when no notification woke it, in ms. @default 1000 */
  outboxPollMs?: number;
  /** The logger, for a database used without an app (the app's once `app.use(db)`). */
  logger?: Logger;
}

/** The options with every default applied. */
export interface ResolvedDatabaseOptions {
  readonly engine:
    | { readonly kind: 'postgres'; readonly url: string }
    | { readonly kind: 'pglite'; readonly dataDir: string | undefined };
  readonly migrations: string | URL | undefined;
  readonly migrate: boolean;
  readonly pool: Required<PoolOptions>;
  readonly statementTimeoutMs: number;
  readonly slowQueryMs: number;
  readonly columns: 'as-is' | 'camelCase';
  readonly int8: Int8Mode;
  readonly isolation: IsolationLevel | undefined;
  readonly constraints: Readonly<Record<string, ConstraintHandler>>;
  readonly outboxPollMs: number;
}

/** Applies the defaults and checks each field; throws a TypeError naming the bad one. */
export function resolveDatabaseOptions(options: DatabaseOptions = {}): ResolvedDatabaseOptions {
  const url = options.url ?? '';
  let engine: ResolvedDatabaseOptions['engine'];
  if (url === '') engine = { kind: 'pglite', dataDir: options.dataDir ?? '.keelson/db' };
  else if (url === 'memory://') engine = { kind: 'pglite', dataDir: undefined };
  else if (/^postgres(ql)?:\/\//.test(url)) engine = { kind: 'postgres', url };
  else {
    throw new TypeError(
      `database: url should start with postgres://, postgresql:// or memory://, instead got ${JSON.stringify(redactUrl(url))}`,
    );
  }
  const pool = {
    max: whole('pool.max', options.pool?.max, 10, 1),
    idleTimeoutMs: whole('pool.idleTimeoutMs', options.pool?.idleTimeoutMs, 10_000, 0),
    connectTimeoutMs: whole('pool.connectTimeoutMs', options.pool?.connectTimeoutMs, 5_000, 1),
  };
  const oneOf = <T extends string>(name: string, value: T | undefined, allowed: T[]) => {
    if (value !== undefined && !allowed.includes(value)) {
      throw new TypeError(
        `database: ${name} should be one of ${allowed.join(', ')}, instead got ${JSON.stringify(value)}`,
      );
    }
    return value ?? allowed[0]!;
  };
  return {
    engine,
    migrations: options.migrations,
    migrate: options.migrate ?? true,
    pool,
    statementTimeoutMs: whole('statementTimeoutMs', options.statementTimeoutMs, 0, 0),
    slowQueryMs: whole('slowQueryMs', options.slowQueryMs, 500, 0),
    columns: oneOf('columns', options.columns, ['as-is', 'camelCase']),
    int8: oneOf('int8', options.int8, ['string', 'number', 'bigint']),
    isolation:
      options.isolation === undefined
        ? undefined
        : oneOf<IsolationLevel>('isolation', options.isolation, [
            'read committed',
            'repeatable read',
            'serializable',
          ]),
    constraints: { ...options.constraints },
    outboxPollMs: whole('outboxPollMs', options.outboxPollMs, 1000, 1),
  };
}

function whole(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(
      `database: ${name} should be an integer >= ${min}, instead got ${String(value)}`,
    );
  }
  return value;
}

/** `url` with its password replaced by `***`, safe for logs, errors and pages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@/\s]*@/i, '$1:***@');
}
