/**
 * What a schema comparison carries: both documents, the direction, and where changes go.
 * @module
 */
import type { Json } from './json.js';
import type { ChangeCode } from './types.js';

/** Which way data flows: a request is narrowed at the client's cost, a response widened. */
export type Direction = 'request' | 'response';

/** One change as a comparison finds it, before the operation is named. */
export interface Found {
  /** Breaking or not. */
  readonly breaking: boolean;
  /** The stable code. */
  readonly code: ChangeCode;
  /** The JSON pointer. */
  readonly location: string;
  /** In words. */
  readonly message: string;
}

/** Both documents, the direction, the words for what is compared, and the sink for changes. */
export interface SchemaContext {
  /** The base document, for its `$ref`s. */
  readonly base: Json;
  /** The current document, for its `$ref`s. */
  readonly current: Json;
  /** Request (parameters, body) or response. */
  readonly direction: Direction;
  /** The compared thing as a whole: `request body`, `query parameter limit`, `response 200`. */
  readonly subject: string;
  /** The words for a field inside it: `request field`, `response field`. */
  readonly fieldWord: string;
  /** Records one change. */
  readonly report: (change: Found) => void;
  /** Pairs of components already compared, so recursive schemas end. */
  readonly seen: Set<string>;
  /** Whether a component is the same in both documents, its `$ref`s included. */
  readonly unchanged: (ref: string) => boolean;
}

/**
 * Whether a change breaks clients: narrowing what a request may be breaks the clients that sent
 * what is now refused; widening what a response may be breaks the clients that never expect it.
 */
export function breaks(ctx: SchemaContext, narrowed: boolean): boolean {
  return ctx.direction === 'request' ? narrowed : !narrowed;
}

/** The words for a place inside the compared thing: its subject, or `request field a.b`. */
export function thing(ctx: SchemaContext, path: string): string {
  return path === '' ? ctx.subject : `${ctx.fieldWord} ${path}`;
}

/** `a.b`, or `b` at the top. */
export function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}
