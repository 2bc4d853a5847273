/**
 * Pagination: a query schema that reads a list's paging parameters (`page`, `offset` or a
 * cursor, and `limit`) into `c.query`, without a schema library in the core.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import {
  MAX_CURSOR_LENGTH,
  MODE_PARAMS,
  type PagingMode,
  parseCount,
  parseCursor,
  refusedNames,
  refuseOthers,
} from './paging-params.js';
import type { Schema } from './schema-types.js';

export type { PagingMode } from './paging-params.js';

/** The query of a list paged by page: 1-based `page`, `limit`, and the `offset` they give. */
export interface PageQuery {
  /** The page asked for, from 1. */
  page: number;
  /** Items per page, from 1 to `maxLimit`. */
  limit: number;
  /** `(page - 1) * limit`: how many items come before this page. */
  offset: number;
}

/** The query of a list paged by offset: how many items to skip, and how many to give. */
export interface OffsetQuery {
  /** Items before this page, from 0. */
  offset: number;
  /** Items per page, from 1 to `maxLimit`. */
  limit: number;
}

/** The query of a list paged by cursor: the key after which the page starts, and its size. */
export interface CursorQuery {
  /** The cursor the last page gave as `next`; undefined for the first page. */
  after: string | undefined;
  /** Items per page, from 1 to `maxLimit`. */
  limit: number;
}

/** The pagination query as a client sends it, paged by page. */
export interface PageQueryInput {
  /** @default 1 */
  page?: string | number;
  /** @default the defaultLimit */
  limit?: string | number;
}

/** The pagination query as a client sends it, paged by offset. */
export interface OffsetQueryInput {
  /** @default 0 */
  offset?: string | number;
  /** @default the defaultLimit */
  limit?: string | number;
}

/** The pagination query as a client sends it, paged by cursor. */
export interface CursorQueryInput {
  /** The `next` cursor of the last page; none for the first page. */
  after?: string;
  /** @default the defaultLimit */
  limit?: string | number;
}

/** The validated query of a mode. */
export type QueryOfMode<M extends PagingMode> = M extends 'offset'
  ? OffsetQuery
  : M extends 'cursor'
    ? CursorQuery
    : PageQuery;

/** The query a client sends for a mode. */
export type InputOfMode<M extends PagingMode> = M extends 'offset'
  ? OffsetQueryInput
  : M extends 'cursor'
    ? CursorQueryInput
    : PageQueryInput;

/** Options of `pagination`. */
export interface PaginationOptions<M extends PagingMode = PagingMode> {
  /** `page` (`?page=2&limit=20`), `offset` (`?offset=20&limit=20`) or `cursor` (`?after=…&limit=20`). @default 'page' */
  mode?: M;
  /** The limit when the client gives none. @default 20 */
  defaultLimit?: number;
  /** The largest limit a client may ask for. @default 100 */
  maxLimit?: number;
}

/** A query schema that is both a Standard Schema and a Standard JSON Schema. */
export type QuerySchema<In, Out> = StandardSchemaV1<In, Out> & StandardJSONSchemaV1<In, Out>;

type Issue = StandardSchemaV1.Issue;
type Json = Record<string, unknown>;
type Result = StandardSchemaV1.Result<unknown>;
const MODES: readonly string[] = ['page', 'offset', 'cursor'];

/**
 * The query schema of a paginated list. By page (the default), `?page=2&limit=50` gives
 * `c.query.page`, `limit` and `offset`; `mode: 'offset'` reads `?offset=50&limit=50`; `mode:
 * 'cursor'` reads `?after=<cursor>&limit=50`. A value out of range, not a whole number, or the
 * paging parameter of another mode (`?offset=` on a list paged by page) answers 422. `also` adds
 * the route's other query parameters.
 * @example get('/articles', { query: pagination({ mode: 'offset', maxLimit: 50 }) }, (c) => list(c.query.offset, c.query.limit))
 */
export function pagination<M extends PagingMode = 'page'>(
  options?: PaginationOptions<M>,
): QuerySchema<InputOfMode<M>, QueryOfMode<M>>;
/** The same, merged with a schema of the route's other query parameters (a zod object). */
export function pagination<S extends Schema, M extends PagingMode = 'page'>(
  options: PaginationOptions<M>,
  also: S,
): QuerySchema<
  InputOfMode<M> & StandardSchemaV1.InferInput<S>,
  QueryOfMode<M> & StandardSchemaV1.InferOutput<S>
>;
export function pagination(
  { mode = 'page', defaultLimit = 20, maxLimit = 100 }: PaginationOptions = {},
  also?: Schema,
): QuerySchema<unknown, unknown> {
  checkOptions(mode, defaultLimit, maxLimit);
  const declared = also ? declaredNames(also) : [];
  const refused = refusedNames(mode, declared);
  const own = (value: unknown): StandardSchemaV1.Result<Json> => {
    const query = (typeof value === 'object' && value !== null ? value : {}) as Json;
    const issues: Issue[] = [];
    const limit = parseCount(
      query.limit,
      'limit',
      { fallback: defaultLimit, min: 1, max: maxLimit },
      issues,
    );
    const paging = readMode(mode, query, limit, issues);
    refuseOthers(query, mode, refused, issues);
    return issues.length ? { issues } : { value: paging };
  };
  const validate = also ? merged(own, also, [...MODE_PARAMS[mode], ...refused]) : own;
  const properties = modeJson(mode, defaultLimit, maxLimit);
  const json = (side: 'input' | 'output', target: string): Json => {
    const extra = also ? otherJson(also, side, target, true) : { properties: {}, required: [] };
    return {
      type: 'object',
      properties: { ...extra.properties, ...properties },
      ...(extra.required.length ? { required: extra.required } : {}),
    };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'keelson',
      validate: validate as (value: unknown) => StandardSchemaV1.Result<unknown>,
      jsonSchema: {
        input: ({ target }) => json('input', target),
        output: ({ target }) => json('output', target),
      },
    },
  };
}

function checkOptions(mode: unknown, defaultLimit: number, maxLimit: number): void {
  if (!MODES.includes(mode as string)) {
    throw new TypeError(`pagination: mode must be one of ${MODES.join(', ')}, got ${String(mode)}`);
  }
  if (!Number.isInteger(maxLimit) || maxLimit < 1) {
    throw new TypeError(
      `pagination: maxLimit must be a whole number of at least 1, got ${maxLimit}`,
    );
  }
  if (!Number.isInteger(defaultLimit) || defaultLimit < 1 || defaultLimit > maxLimit) {
    throw new TypeError(
      `pagination: defaultLimit must be a whole number from 1 to maxLimit (${maxLimit}), got ${defaultLimit}`,
    );
  }
}

const ANY_COUNT = Number.MAX_SAFE_INTEGER;

function readMode(mode: PagingMode, query: Json, limit: number, issues: Issue[]): Json {
  if (mode === 'cursor') return { after: parseCursor(query.after, 'after', issues), limit };
  if (mode === 'offset') {
    const offset = parseCount(
      query.offset,
      'offset',
      { fallback: 0, min: 0, max: ANY_COUNT },
      issues,
    );
    return { offset, limit };
  }
  const page = parseCount(query.page, 'page', { fallback: 1, min: 1, max: ANY_COUNT }, issues);
  return { page, limit, offset: (page - 1) * limit };
}

function modeJson(mode: PagingMode, defaultLimit: number, maxLimit: number): Json {
  const limit = {
    type: 'integer',
    minimum: 1,
    maximum: maxLimit,
    default: defaultLimit,
    description: 'Items per page.',
  };
  if (mode === 'cursor') {
    const after = {
      type: 'string',
      minLength: 1,
      maxLength: MAX_CURSOR_LENGTH,
      description:
        'Where the page starts: the `next` cursor of the page before; none for the first.',
    };
    return { after, limit };
  }
  if (mode === 'offset') {
    return {
      offset: { type: 'integer', minimum: 0, default: 0, description: 'Items to skip.' },
      limit,
    };
  }
  return {
    page: { type: 'integer', minimum: 1, default: 1, description: 'The page, from 1.' },
    limit,
  };
}

function merged(
  own: (value: unknown) => StandardSchemaV1.Result<Json>,
  also: Schema,
  hidden: readonly string[],
): (value: unknown) => Result | Promise<Result> {
  const combine = (a: StandardSchemaV1.Result<Json>, b: Result): Result => {
    if (a.issues || b.issues) return { issues: [...(a.issues ?? []), ...(b.issues ?? [])] };
    return { value: { ...(b.value as object), ...a.value } };
  };
  return (value) => {
    // The other schema must not see the paging parameters: a strict object would refuse them,
    // and one this schema refuses would be reported twice.
    const rest = { ...((value ?? {}) as Json) };
    for (const name of hidden) delete rest[name];
    const mine = own(value);
    const theirs = also['~standard'].validate(rest);
    return theirs instanceof Promise ? theirs.then((b) => combine(mine, b)) : combine(mine, theirs);
  };
}

// The names the other schema declares, read from its JSON Schema side when it has one.
function declaredNames(also: Schema): string[] {
  try {
    return Object.keys(otherJson(also, 'input', 'draft-2020-12', false).properties);
  } catch {
    return [];
  }
}

function otherJson(
  also: Schema,
  side: 'input' | 'output',
  target: string,
  required: boolean,
): { properties: Json; required: string[] } {
  const std = also['~standard'] as Schema['~standard'] & Partial<StandardJSONSchemaV1['~standard']>;
  const json = std.jsonSchema?.[side]({ target }) as
    | { properties?: Json; required?: string[] }
    | undefined;
  if (!json && required)
    throw new Error('pagination: the other query schema has no JSON Schema side');
  return { properties: json?.properties ?? {}, required: json?.required ?? [] };
}
