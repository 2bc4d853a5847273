/**
 * `database()`: PostgreSQL for a service, a module that migrates at start, answers health,
 * maps errors to problems and closes last.
 * @module
 */
import type { App, Module } from '../app.js';
import type { HealthChecker } from '../contracts.js';
import { type Logger, newLogger } from '../logger/index.js';
import type { Middleware } from '../routing/types.js';
import { camelRows } from './columns.js';
import type { Engine } from './engine.js';
import { toDatabaseError } from './failure.js';
import {
  applyMigrations,
  type MigrationStatus,
  migrationStatus,
  migrationsDir,
} from './migrations.js';
import { observeQuery, type QueryObservers } from './observe.js';
import { openEngine } from './open.js';
import {
  type DatabaseOptions,
  type ResolvedDatabaseOptions,
  redactUrl,
  resolveDatabaseOptions,
} from './options.js';
import { type Sql, sqlTag } from './sql.js';
import { dbStorage, type IsolationLevel, Tx } from './tx.js';

/** Options of one transaction. */
export interface TransactionOptions {
  /** The isolation level; unset: the database's `isolation` option, else the server's. */
  isolation?: IsolationLevel;
  /** Times to run `fn` again after a serialization failure or a deadlock (40001, 40P01). @default 0 */
  retries?: number;
}

/**
 * A PostgreSQL database: queries, transactions that follow the code, migrations, and (used as a
 * module) health, problem+json errors and an orderly close. Prefer `database(options)`.
 */
export class Database implements Module {
  /** A database belongs to the app, never to a group. */
  readonly appOnly = true;
  /**
   * Tagged-template queries: every interpolation is a parameter, a `db.sql` inside is a fragment.
   * @example const users = await db.sql<User>`select * from users where name = ${name}`;
   */
  readonly sql: Sql;
  readonly #options: ResolvedDatabaseOptions;
  readonly #storage = dbStorage();
  readonly #observers: QueryObservers;
  #engine: Promise<Engine> | undefined;
  #app: App | undefined;
  #logger: Logger | undefined;
  #closing: Promise<void> | undefined;
  readonly #template: Blob | undefined;

  /**
   * Checks the options; connects at the first query (or at the app's start). `template` (for
   * keelson/testing) starts the embedded engine from a dump.
   */
  constructor(options: DatabaseOptions = {}, template?: Blob) {
    this.#options = resolveDatabaseOptions(options);
    this.#template = template;
    this.#logger = options.logger;
    this.sql = sqlTag((text, params) => this.query(text, params));
    this.#observers = {
      metrics: () => this.#app?.metrics,
      tracer: () => this.#app?.tracer,
      logger: () => this.#log,
      slowQueryMs: this.#options.slowQueryMs,
    };
  }

  /** `postgres` (a server, node-postgres) or `pglite` (embedded). */
  get engine(): 'postgres' | 'pglite' {
    return this.#options.engine.kind;
  }

  /** Where the data is, safe to print: the URL without its password, or the embedded store. */
  get location(): string {
    const e = this.#options.engine;
    if (e.kind === 'postgres') return redactUrl(e.url);
    return e.dataDir === undefined ? 'memory://' : e.dataDir;
  }

  /** The absolute path of the migrations folder; undefined when there are no migrations. */
  get migrationsPath(): string | undefined {
    const { migrations } = this.#options;
    return migrations === undefined ? undefined : migrationsDir(migrations);
  }

  /**
   * Runs one statement with `$1`-style parameters and resolves its rows; inside a transaction,
   * on the transaction's connection. Failures throw a DatabaseError.
   * @example const rows = await db.query<{ id: number }>('select id from users where name = $1', [name]);
   */
  async query<Row = Record<string, unknown>>(
    text: string,
    params: readonly unknown[] = [],
  ): Promise<Row[]> {
    if (this.#closing) throw new Error('the database is closed');
    const scope = this.#storage.getStore();
    let ended: ((error: unknown) => void) | undefined;
    try {
      // Opening the engine (PGlite's boot, the transaction's BEGIN) is not the query's time.
      const on = scope?.tx ? await scope.tx.connection() : await this.#open();
      ended = observeQuery(this.#observers, text, scope?.request);
      const result = await on.query(text, params);
      ended(undefined);
      return (
        this.#options.columns === 'camelCase' ? camelRows(result.rows) : result.rows
      ) as Row[];
    } catch (err) {
      const error = toDatabaseError(err, text, this.#options.constraints);
      ended?.(error);
      throw error;
    }
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Queries
   * inside use it without being passed anything; a nested call is a savepoint.
   * @example await db.transaction(async () => { await debit(a); await credit(b); }, { retries: 3, isolation: 'serializable' });
   */
  async transaction<T>(fn: () => Promise<T> | T, options: TransactionOptions = {}): Promise<T> {
    const scope = this.#storage.getStore();
    if (scope?.tx) return this.#savepoint(scope.tx, fn);
    const retries = options.retries ?? 0;
    const engine = await this.#open();
    for (let attempt = 0; ; attempt++) {
      const tx = new Tx(engine, options.isolation ?? this.#options.isolation);
      try {
        const result = await this.#storage.run({ request: scope?.request, tx }, fn);
        await this.#commit(tx);
        return result;
      } catch (err) {
        await tx.end(false).catch(() => {});
        const kind = (err as { kind?: unknown }).kind;
        if (attempt < retries && kind === 'serialization') continue;
        throw err;
      }
    }
  }

  /**
   * Route middleware: the handler runs in one transaction, begun at its first query (a request
   * refused before that takes no connection), committed before the answer is written, rolled
   * back when the handler throws.
   * @example app.addRoutes(post('/orders', { middleware: [db.transactional()] }, createOrder));
   */
  transactional(options: Omit<TransactionOptions, 'retries'> = {}): Middleware {
    const db = this;
    return async function transactional(c, next) {
      const scope = db.#storage.getStore();
      if (scope?.tx) return next();
      const tx = new Tx(await db.#open(), options.isolation ?? db.#options.isolation);
      let result: unknown;
      try {
        result = await db.#storage.run({ request: scope?.request ?? c, tx }, next);
      } catch (err) {
        await tx.end(false).catch(() => {});
        throw err;
      }
      // The client hung up (or the route's time ran out): no one will see an answer, so
      // nothing is committed.
      const signal = c.signal;
      if (signal.aborted) {
        await tx.end(false).catch(() => {});
        throw signal.reason;
      }
      await db.#commit(tx);
      return result;
    };
  }

  /** Applies the pending migrations and resolves the names of the files applied. */
  async migrate(): Promise<string[]> {
    const { migrations } = this.#options;
    if (migrations === undefined) return [];
    const applied = await applyMigrations(await this.#open(), migrationsDir(migrations));
    for (const name of applied) this.#log.info('migration %s applied', name);
    return applied;
  }

  /** Where each migration file stands (applied, pending, changed, missing). */
  async migrationStatus(): Promise<MigrationStatus[]> {
    const { migrations } = this.#options;
    if (migrations === undefined) return [];
    return migrationStatus(await this.#open(), migrationsDir(migrations));
  }

  /** The embedded engine's data as a tarball (PGlite's `dumpDataDir`), for copies; a server has none. */
  async dump(): Promise<Blob> {
    const engine = await this.#open();
    if (!engine.dump) throw new Error('only the embedded engine (PGlite) can be dumped');
    return engine.dump();
  }

  /** Closes every connection; later queries fail. Used as a module, the app calls it last at shutdown. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const engine = await this.#engine?.catch(() => undefined);
      await engine?.close();
    })();
    return this.#closing;
  }

  /** A health checker named `database`: `select 1` within the health timeout. */
  healthChecker(): HealthChecker {
    return {
      name: () => 'database',
      check: async () => {
        try {
          await (await this.#open()).query('select 1', []);
        } catch (err) {
          throw new Error(redactUrl(String((err as Error)?.message ?? err)));
        }
      },
    };
  }

  /**
   * Used by `app.use(db)`: adds the `database` health checker, runs the migrations when the app
   * starts (before the port opens, or before `inject`'s first request), and closes the pool after
   * every other shutdown hook.
   */
  register(app: App): void {
    if (this.#app) throw new Error('this database is already used by an app');
    this.#app = app;
    this.#logger ??= app.logger;
    const storage = this.#storage;
    app.use(function databaseScope(c, next) {
      return storage.run({ request: c }, next);
    });
    app.registerHealthChecker(this.healthChecker());
    app.onStart(() => this.#start());
    app.onShutdown(() => this.close(), { last: true });
  }

  get #log(): Logger {
    this.#logger ??= newLogger(process.env.NODE_ENV === 'production');
    return this.#logger;
  }

  async #start(): Promise<void> {
    await this.#open();
    this.#log.info(
      'database: %s',
      this.engine === 'postgres'
        ? `PostgreSQL at ${this.location}`
        : `embedded PostgreSQL (PGlite) in ${this.location}`,
    );
    if (this.#options.migrate) await this.migrate();
  }

  #open(): Promise<Engine> {
    if (this.#closing) return Promise.reject(new Error('the database is closed'));
    this.#engine ??= openEngine(this.#options, this.#log, this.#template).catch((err: unknown) => {
      this.#engine = undefined;
      throw err;
    });
    return this.#engine;
  }

  async #commit(tx: Tx): Promise<void> {
    try {
      await tx.end(true);
    } catch (err) {
      throw toDatabaseError(err, 'commit', this.#options.constraints);
    }
  }

  async #savepoint<T>(tx: Tx, fn: () => Promise<T> | T): Promise<T> {
    const name = `keelson_savepoint_${++tx.savepoints}`;
    await this.query(`savepoint ${name}`);
    try {
      const result = await fn();
      await this.query(`release savepoint ${name}`);
      return result;
    } catch (err) {
      await this.query(`rollback to savepoint ${name}`).catch(() => {});
      throw err;
    }
  }
}

/**
 * A PostgreSQL database for a service: a server when `url` is `postgres://…`, else an embedded
 * one (PGlite) in `.keelson/db`, or in memory with `url: 'memory://'`.
 * @example
 * const db = database({ url: process.env.DATABASE_URL, migrations: 'migrations' });
 * app.use(db);
 */
export function database(options: DatabaseOptions = {}): Database {
  return new Database(options);
}
