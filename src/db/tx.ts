/**
 * A transaction that follows the code it runs, not an argument: an AsyncLocalStorage holds it,
 * so `db.query` and `db.sql` inside join it wherever they are called from.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '../routing/context.js';
import type { Engine, EngineConnection } from './engine.js';

/** The isolation level of a transaction. */
export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

/** What the current request lends the queries it runs: its logger (with its id) and its span. */
export type RequestScope = Pick<Context, 'log' | 'span' | 'request'>;

/** What the async context holds. */
export interface DbScope {
  readonly request?: RequestScope | undefined;
  readonly tx?: Tx | undefined;
}

/** The async context of one database. */
export type DbStorage = AsyncLocalStorage<DbScope>;

/** A new async context for a database. */
export function dbStorage(): DbStorage {
  return new AsyncLocalStorage<DbScope>();
}

/**
 * One transaction. It begins at its first query (so a request refused before its handler
 * queries never takes a connection), and `end` commits or rolls back what was begun.
 */
export class Tx {
  /** Savepoints made so far, for unique names. */
  savepoints = 0;
  readonly #engine: Engine;
  readonly #begin: string;
  #opening: Promise<EngineConnection> | undefined;
  #ending: Promise<void> | undefined;

  /** `isolation` undefined: the server's default. */
  constructor(engine: Engine, isolation: IsolationLevel | undefined) {
    this.#engine = engine;
    this.#begin = isolation ? `begin isolation level ${isolation}` : 'begin';
  }

  /** The transaction's connection, begun on first call. */
  connection(): Promise<EngineConnection> {
    if (this.#ending) {
      return Promise.reject(
        new Error('a query ran after its transaction ended (was a promise left un-awaited?)'),
      );
    }
    this.#opening ??= (async () => {
      const conn = await this.#engine.connect();
      try {
        await conn.query(this.#begin, []);
      } catch (err) {
        conn.release(true);
        throw err;
      }
      return conn;
    })();
    return this.#opening;
  }

  /** Commits (`ok`) or rolls back, and gives the connection back; once, whatever is asked later. */
  end(ok: boolean): Promise<void> {
    this.#ending ??= this.#finish(ok);
    return this.#ending;
  }

  async #finish(ok: boolean): Promise<void> {
    if (this.#opening === undefined) return;
    let conn: EngineConnection;
    try {
      conn = await this.#opening;
    } catch (err) {
      if (ok) throw err;
      return;
    }
    try {
      await conn.query(ok ? 'commit' : 'rollback', []);
      conn.release();
    } catch (err) {
      conn.release(true);
      if (ok) throw err;
    }
  }
}
