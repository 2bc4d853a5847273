/**
 * Database failures as KErrors: a stable status and code for the client, the SQL, constraint
 * and table for the log only.
 * @module
 */
import { ERROR_CATALOGUE, KError, type KeelsonErrorCode } from '../errors/index.js';

/** What kind of failure a DatabaseError is. */
export type DatabaseErrorKind =
  | 'unique'
  | 'foreign_key'
  | 'not_null'
  | 'check'
  | 'invalid_input'
  | 'timeout'
  | 'unavailable'
  | 'serialization'
  | 'other';

/** What a constraint handler returns: the error the client should see instead. */
export type ConstraintHandler = (error: DatabaseError) => KError;

interface Mapping {
  readonly code: KeelsonErrorCode;
  readonly detail: string;
}

const MAPPINGS: Readonly<Record<DatabaseErrorKind, Mapping>> = {
  unique: { code: 'CONFLICT', detail: 'A record with the same value already exists.' },
  foreign_key: {
    code: 'CONFLICT',
    detail: 'The record refers to one that does not exist, or is still referred to.',
  },
  not_null: { code: 'VALIDATION_FAILED', detail: 'A required value is missing.' },
  check: { code: 'VALIDATION_FAILED', detail: 'A value is not allowed.' },
  invalid_input: { code: 'BAD_REQUEST', detail: 'A value has the wrong format.' },
  timeout: {
    code: 'SERVICE_UNAVAILABLE',
    detail: 'The database did not answer in time.',
  },
  unavailable: {
    code: 'SERVICE_UNAVAILABLE',
    detail: 'The database is unavailable.',
  },
  serialization: {
    code: 'SERVICE_UNAVAILABLE',
    detail: 'The request clashed with another one; try again.',
  },
  other: { code: 'INTERNAL', detail: 'An unexpected error occurred.' },
};

/** What a DatabaseError is made from. */
interface DatabaseErrorInit {
  readonly kind: DatabaseErrorKind;
  readonly sqlState: string | undefined;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  readonly column: string | undefined;
  readonly cause: unknown;
}

/**
 * A query that failed: a KError whose status and code the client sees (409 for a unique or
 * foreign-key violation, 422 for not-null and check, 400 for input PostgreSQL cannot read, 503
 * with `Retry-After` for timeouts and an unreachable database), while the SQL, constraint and
 * table reach only the log (its `cause`).
 * @example
 * try { await db.sql`insert into users (name) values (${name})`; }
 * catch (err) { if (err instanceof DatabaseError && err.kind === 'unique') … }
 */
export class DatabaseError extends KError {
  override readonly name = 'DatabaseError';
  /** What kind of failure this is. */
  readonly kind: DatabaseErrorKind;
  /** PostgreSQL's SQLSTATE, e.g. `23505`; undefined for a connection failure. */
  readonly sqlState: string | undefined;
  /** The violated constraint, when PostgreSQL names one. */
  readonly constraint: string | undefined;
  /** The table concerned, when PostgreSQL names one. */
  readonly table: string | undefined;
  /** The column concerned, when PostgreSQL names one. */
  readonly column: string | undefined;

  /** Made by the database layer from a driver error; see `toDatabaseError`. */
  constructor(init: DatabaseErrorInit) {
    const mapping = MAPPINGS[init.kind];
    const status = ERROR_CATALOGUE[mapping.code].status;
    super({
      code: mapping.code,
      statusCode: status,
      message: mapping.detail,
      cause: init.cause,
      headers: status === 503 ? { 'retry-after': '1' } : undefined,
    });
    this.kind = init.kind;
    this.sqlState = init.sqlState;
    this.constraint = init.constraint;
    this.table = init.table;
    this.column = init.column;
  }
}

/** The kind of a SQLSTATE (or of a connection error code), by class. */
export function kindOf(code: string | undefined): DatabaseErrorKind {
  if (code === undefined) return 'other';
  const exact: Record<string, DatabaseErrorKind> = {
    '23505': 'unique',
    '23503': 'foreign_key',
    '23502': 'not_null',
    '23514': 'check',
    '57014': 'timeout',
    '40001': 'serialization',
    '40P01': 'serialization',
    '57P01': 'unavailable',
    '57P02': 'unavailable',
    '57P03': 'unavailable',
    '53300': 'unavailable',
    KEELSON_DB_POOL_TIMEOUT: 'unavailable',
    ECONNREFUSED: 'unavailable',
    ECONNRESET: 'unavailable',
    ENOTFOUND: 'unavailable',
    EPIPE: 'unavailable',
    ETIMEDOUT: 'unavailable',
  };
  const kind = exact[code];
  if (kind) return kind;
  if (code.startsWith('22')) return 'invalid_input';
  if (code.startsWith('08')) return 'unavailable';
  return 'other';
}
