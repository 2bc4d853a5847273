/**
 * The query side of a database: the engine, `query`, `sql`, and transactions that follow the code.
 * @module
 */
import type { App } from '../app.js';
import { type Logger, newLogger } from '../logger/index.js';
import type { Middleware } from '../routing/types.js';
import { camelRows } from './columns.js';
import type { Engine } from './engine.js';
import { toDatabaseError } from './failure.js';
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

/** Queries and transactions; `Database` adds the module, migrations and the outbox. */
export class DatabaseCore {
  /**
   * Tagged-template queries: every interpolation is a parameter, a `db.sql` inside is a fragment.
   * @example const users = await db.sql<User>`select * from users where name = ${name}`;
   */
  readonly sql: Sql;
  /** The resolved options. */
  protected readonly options: ResolvedDatabaseOptions;
  /** The app this database is used by, once `app.use(db)`. */
  protected app: App | undefined;
  readonly #storage = dbStorage();
  readonly #observers: QueryObservers;
  readonly #template: Blob | undefined;
  #engine: Promise<Engine> | undefined;
  #logger: Logger | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks the options; connects at the first query (or at the app's start). `template` (for
   * keelson/testing) starts the embedded engine from a dump.
   */
  constructor(options: DatabaseOptions = {}, template?: Blob) {
    this.options = resolveDatabaseOptions(options);
    this.#template = template;
    this.#logger = options.logger;
    this.sql = sqlTag((text, params) => this.query(text, params));
    this.#observers = {
      metrics: () => this.app?.metrics,
      tracer: () => this.app?.tracer,
      logger: () => this.log,
      slowQueryMs: this.options.slowQueryMs,
    };
  }

  /** `postgres` (a server, node-postgres) or `pglite` (embedded). */
  get engine(): 'postgres' | 'pglite' {
    return this.options.engine.kind;
  }

  /** Where the data is, safe to print: the URL without its password, or the embedded store. */
  get location(): string {
    const e = this.options.engine;
    if (e.kind === 'postgres') return redactUrl(e.url);
    return e.dataDir === undefined ? 'memory://' : e.dataDir;
  }

  /** True when the calling code runs inside a transaction of this database. */
  get inTransaction(): boolean {
    return this.#storage.getStore()?.tx !== undefined;
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
      const on = scope?.tx ? await scope.tx.connection() : await this.open();
      ended = observeQuery(this.#observers, text, scope?.request);
      const result = await on.query(text, params);
      ended(undefined);
      return (this.options.columns === 'camelCase' ? camelRows(result.rows) : result.rows) as Row[];
    } catch (err) {
      const error = toDatabaseError(err, text, this.options.constraints);
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
    const engine = await this.open();
    for (let attempt = 0; ; attempt++) {
      const tx = new Tx(engine, options.isolation ?? this.options.isolation);
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
      const tx = new Tx(await db.open(), options.isolation ?? db.options.isolation);
      let result: unknown;
      try {
        result = await db.#storage.run({ request: scope?.request ?? c, tx }, next);
      } catch (err) {
        await tx.end(false).catch(() => {});
        throw err;
      }
      // The client hung up (or the route's time ran out): no one will see an answer, so
      // nothing is committed.
      if (c.signal.aborted) {
        await tx.end(false).catch(() => {});
        throw c.signal.reason;
      }
      await db.#commit(tx);
      return result;
    };
  }

  /** Closes every connection; later queries fail. Used as a module, the app calls it last at shutdown. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const engine = await this.#engine?.catch(() => undefined);
      await engine?.close();
    })();
    return this.#closing;
  }

  /** The logger: the app's once used by one, else the one given, else a new one. */
  protected get log(): Logger {
    if (this.app) return this.app.logger;
    this.#logger ??= newLogger(process.env.NODE_ENV === 'production');
    return this.#logger;
  }

  /** The engine, opened on first call. */
  protected open(): Promise<Engine> {
    if (this.#closing) return Promise.reject(new Error('the database is closed'));
    this.#engine ??= openEngine(this.options, () => this.log, this.#template).catch(
      (err: unknown) => {
        this.#engine = undefined;
        throw err;
      },
    );
    return this.#engine;
  }

  /** A middleware that lends each request (its logger, its span) to the queries it runs. */
  protected requestScope(): Middleware {
    const storage = this.#storage;
    return function databaseScope(c, next) {
      return storage.run({ request: c }, next);
    };
  }

  async #commit(tx: Tx): Promise<void> {
    try {
      await tx.end(true);
    } catch (err) {
      throw toDatabaseError(err, 'commit', this.options.constraints);
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
