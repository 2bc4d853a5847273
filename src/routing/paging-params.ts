/**
 * The query parameters of each paging mode, read from a query string: whole numbers in range,
 * an opaque cursor, and the paging parameters of the other modes refused rather than ignored.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** How a list pages: by `page` and `limit`, by `offset` and `limit`, or `after` a cursor. */
export type PagingMode = 'page' | 'offset' | 'cursor';

type Issue = StandardSchemaV1.Issue;

const DIGITS = /^[0-9]{1,15}$/;

/** The longest cursor accepted: a cursor is a key the server made, never a document. */
export const MAX_CURSOR_LENGTH = 512;

/** The parameters each mode reads; `limit` is common to all. */
export const MODE_PARAMS: Readonly<Record<PagingMode, readonly string[]>> = {
  page: ['page', 'limit'],
  offset: ['offset', 'limit'],
  cursor: ['after', 'limit'],
};

// Names clients use to page through lists (Rails, Django, GitHub, JSON:API, RealWorld): one the
// route does not read would otherwise be dropped in silence, and the client get the first page.
const PAGING_NAMES = [
  'page',
  'offset',
  'after',
  'before',
  'cursor',
  'skip',
  'take',
  'per_page',
  'perPage',
  'page_size',
  'pageSize',
];

const DESCRIBE: Readonly<Record<PagingMode, string>> = {
  page: 'page and limit',
  offset: 'offset and limit',
  cursor: 'after (a cursor) and limit',
};

/** The paging names a query schema must refuse: those of other modes, less the route's own. */
export function refusedNames(mode: PagingMode, declared: readonly string[]): readonly string[] {
  const own = new Set([...MODE_PARAMS[mode], ...declared]);
  return PAGING_NAMES.filter((name) => !own.has(name));
}

/** Adds an issue for each refused paging parameter the query carries. */
export function refuseOthers(
  query: Record<string, unknown>,
  mode: PagingMode,
  refused: readonly string[],
  issues: Issue[],
): void {
  for (const name of refused) {
    if (query[name] === undefined) continue;
    issues.push({
      message: `this list pages by ${DESCRIBE[mode]}; ${name} is not one of its parameters`,
      path: [name],
    });
  }
}

/** A whole number from `min` to `max`, `fallback` when absent; an issue otherwise. */
export function parseCount(
  raw: unknown,
  name: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
  issues: Issue[],
): number {
  if (raw === undefined) return fallback;
  // A query string gives strings; a value validated outside HTTP may already be a number.
  const n =
    typeof raw === 'string' && DIGITS.test(raw)
      ? Number(raw)
      : Number.isInteger(raw)
        ? (raw as number)
        : Number.NaN;
  if (n >= min && n <= max) return n;
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
  issues.push({ message: `must be a whole number ${range}`, path: [name] });
  return fallback;
}

/** An opaque cursor: a non-empty string of at most MAX_CURSOR_LENGTH characters, or undefined. */
export function parseCursor(raw: unknown, name: string, issues: Issue[]): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && raw.length > 0 && raw.length <= MAX_CURSOR_LENGTH) return raw;
  issues.push({
    message: `must be one cursor of 1 to ${MAX_CURSOR_LENGTH} characters, as the last page gave it`,
    path: [name],
  });
  return undefined;
}
