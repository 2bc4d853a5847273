/**
 * The small contract each database engine meets; everything above it is written once.
 * @module
 */

/** One column of a result, as the engine describes it. */
export interface EngineField {
  /** The column's name, as the query wrote it. */
  readonly name: string;
  /** The PostgreSQL type OID of the column. */
  readonly dataTypeID: number;
}

/** What one statement returned. */
export interface EngineResult {
  /** The rows, already parsed into JavaScript values. */
  readonly rows: Record<string, unknown>[];
  /** Rows returned or changed; 0 when the statement reports none. */
  readonly rowCount: number;
  /** The columns of `rows`. */
  readonly fields: readonly EngineField[];
}

/** A connection held for a transaction or a migration. */
export interface EngineConnection {
  /** Runs one statement with `$1`-style parameters. */
  query(text: string, params: readonly unknown[]): Promise<EngineResult>;
  /** Runs a script of several statements, with no parameters (a migration file). */
  exec(text: string): Promise<void>;
  /** Gives the connection back; `broken` discards it instead of reusing it. */
  release(broken?: boolean): void;
}

/** A database engine: node-postgres with a pool, or PGlite in the process. */
export interface Engine {
  /** `postgres` (a server) or `pglite` (embedded). */
  readonly kind: 'postgres' | 'pglite';
  /** Runs one statement on any free connection. */
  query(text: string, params: readonly unknown[]): Promise<EngineResult>;
  /** Takes a connection for the caller alone, waiting at most the connect timeout. */
  connect(): Promise<EngineConnection>;
  /** Closes every connection; queries after this fail. */
  close(): Promise<void>;
  /** Calls `fn` on each notification of `channel` (LISTEN) until the returned function is called. */
  listen(channel: string, fn: () => void): Promise<() => Promise<void>>;
  /** The embedded engine's whole data directory as a tarball, to start copies from. */
  dump?(): Promise<Blob>;
}

/** What every engine is built from. */
export interface EngineSettings {
  /** Parsers by type OID, from the text form PostgreSQL sends: the same on both engines. */
  readonly parsers: Readonly<Record<number, (text: string) => unknown>>;
  /** How long `connect()` and pool queries wait for a free connection, in ms. */
  readonly connectTimeoutMs: number;
  /** The `statement_timeout` set on every connection, in ms; 0 for none. */
  readonly statementTimeoutMs: number;
}

/** Thrown when no connection becomes free within the connect timeout. */
export class PoolTimeoutError extends Error {
  /** Always `KEELSON_DB_POOL_TIMEOUT`. */
  readonly code = 'KEELSON_DB_POOL_TIMEOUT';
  /** `waited` is the connect timeout in ms. */
  constructor(waited: number) {
    super(`no database connection became free within ${waited} ms`);
    this.name = 'PoolTimeoutError';
  }
}
