/**
 * Turning what a driver threw into a DatabaseError, keeping every detail for the log.
 * @module
 */
import { isKError, type KError } from '../errors/index.js';
import { type ConstraintHandler, DatabaseError, type DatabaseErrorKind, kindOf } from './errors.js';

interface DriverError {
  code?: unknown;
  message?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  detail?: unknown;
  position?: unknown;
}

// node-postgres reports a lost connection with no code.
const LOST_CONNECTION =
  /connection terminated|not queryable|connection error|ended the connection/i;

/**
 * The DatabaseError for `err`, thrown by the statement `text` (kept for the log, without its
 * parameter values); a constraint named in `constraints` gives the error its handler returns.
 */
export function toDatabaseError(
  err: unknown,
  text: string,
  constraints: Readonly<Record<string, ConstraintHandler>> = {},
): KError {
  if (isKError(err)) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as DriverError;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const code = str(e.code);
  let kind: DatabaseErrorKind = kindOf(code);
  if (kind === 'other' && code === undefined && LOST_CONNECTION.test(String(e.message))) {
    kind = 'unavailable';
  }
  const constraint = str(e.constraint);
  const table = str(e.table);
  const column = str(e.column);
  const facts = [
    code && `SQLSTATE ${code}`,
    constraint && `constraint ${constraint}`,
    table && `table ${table}`,
    column && `column ${column}`,
    str(e.detail),
  ].filter(Boolean);
  const line = `database ${kind === 'other' ? 'error' : kind}: ${String(e.message ?? err)}${
    facts.length ? ` (${facts.join(', ')})` : ''
  }; query: ${oneLine(text)}`;
  const cause = new Error(line, { cause: err });
  cause.name = 'QueryFailed';
  const error = new DatabaseError({ kind, sqlState: code, constraint, table, column, cause });
  const handler = constraint === undefined ? undefined : constraints[constraint];
  return handler ? withCause(handler(error), error) : error;
}

/** The line (1-based) of `position` (PostgreSQL's 1-based character offset) in `text`. */
export function lineOf(text: string, position: unknown): number | undefined {
  const at = Number(position);
  if (!Number.isInteger(at) || at < 1) return undefined;
  return text.slice(0, at - 1).split('\n').length;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 500 ? `${flat.slice(0, 500)}…` : flat;
}

function withCause(mapped: KError, error: DatabaseError): KError {
  if (mapped.cause === undefined) {
    Object.defineProperty(mapped, 'cause', { value: error, configurable: true, writable: true });
  }
  return mapped;
}
