/**
 * The answer of a paginated list: `{ data, page, limit, total, totalPages }` by page,
 * `{ data, offset, limit, total }` by offset, `{ data, limit, next }` by cursor.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { CursorQuery, OffsetQuery, PageQuery, QuerySchema } from './pagination.js';
import type { PagingMode } from './paging-params.js';
import type { Schema } from './schema-types.js';

/** One page of a list, with the totals a client needs to page through it. */
export interface Page<T> {
  /** The items of this page. */
  data: T[];
  /** The page, from 1. */
  page: number;
  /** Items per page. */
  limit: number;
  /** Items in the whole list. */
  total: number;
  /** Pages in the whole list: `ceil(total / limit)`. */
  totalPages: number;
}

/** One page of a list paged by offset. */
export interface OffsetPage<T> {
  /** The items of this page. */
  data: T[];
  /** Items before this page. */
  offset: number;
  /** Items per page. */
  limit: number;
  /** Items in the whole list. */
  total: number;
}

/** One page of a list paged by cursor: `next` is the `after` of the next page, null on the last. */
export interface CursorPage<T> {
  /** The items of this page. */
  data: T[];
  /** Items per page. */
  limit: number;
  /** The cursor of the next page, or null when this page is the last. */
  next: string | null;
}

/** The page type of a mode. */
export type PageOfMode<M extends PagingMode, T> = M extends 'offset'
  ? OffsetPage<T>
  : M extends 'cursor'
    ? CursorPage<T>
    : Page<T>;

type Json = Record<string, unknown>;

const COUNT = { type: 'integer', minimum: 0 };
const FIELDS: Readonly<Record<PagingMode, Json>> = {
  page: {
    page: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1 },
    total: COUNT,
    totalPages: COUNT,
  },
  offset: { offset: COUNT, limit: { type: 'integer', minimum: 1 }, total: COUNT },
  cursor: { limit: { type: 'integer', minimum: 1 }, next: { type: ['string', 'null'] } },
};

// The item's definitions move to the root of the page's schema, where its `$ref`s point.
function pageJson(item: Json, mode: PagingMode): Json {
  const { $schema: _schema, $defs, definitions, ...root } = item;
  const fields = FIELDS[mode];
  return {
    type: 'object',
    properties: { data: { type: 'array', items: root }, ...fields },
    required: ['data', ...Object.keys(fields)],
    additionalProperties: false,
    ...($defs ? { $defs } : {}),
    ...(definitions ? { definitions } : {}),
  };
}

/**
 * The response schema of one page of `itemSchema` items, in the shape of the `mode` the route's
 * `pagination()` pages by; documented in OpenAPI like any schema.
 * @example get('/articles', { query: pagination(), responses: { 200: paginated(Article) } }, …)
 */
export function paginated<S extends Schema, M extends PagingMode = 'page'>(
  itemSchema: S,
  { mode = 'page' as M }: { mode?: M } = {},
): QuerySchema<
  PageOfMode<M, StandardSchemaV1.InferInput<S>>,
  PageOfMode<M, StandardSchemaV1.InferOutput<S>>
> {
  const std = itemSchema?.['~standard'] as
    | (Schema['~standard'] & Partial<StandardJSONSchemaV1['~standard']>)
    | undefined;
  if (!std || typeof std.validate !== 'function') {
    throw new TypeError('paginated takes the Standard Schema of one item, such as z.object({ … })');
  }
  const jsonSide = (side: 'input' | 'output') => (options: { target: string }) => {
    const convert = std.jsonSchema?.[side];
    if (!convert) throw new Error(`the item schema (vendor ${std.vendor}) has no JSON Schema side`);
    return pageJson(convert.call(std.jsonSchema, options) as Json, mode);
  };
  if (!(mode in FIELDS)) {
    throw new TypeError(`paginated: mode must be one of page, offset, cursor, got ${String(mode)}`);
  }
  return {
    '~standard': {
      version: 1,
      vendor: 'keelson',
      validate: (value) => validatePage(std, value, mode) as never,
      jsonSchema: { input: jsonSide('input'), output: jsonSide('output') },
    },
  };
}

async function validatePage(
  item: Schema['~standard'],
  value: unknown,
  mode: PagingMode,
): Promise<StandardSchemaV1.Result<Json>> {
  const page = value as (Json & { data?: unknown }) | null;
  const fields = Object.keys(FIELDS[mode]);
  if (typeof page !== 'object' || page === null || !Array.isArray(page.data)) {
    return { issues: [{ message: `must be a page: { data: [...], ${fields.join(', ')} }` }] };
  }
  const issues: StandardSchemaV1.Issue[] = [];
  const data: unknown[] = [];
  for (const [i, entry] of page.data.entries()) {
    const result = await item.validate(entry);
    if (result.issues)
      for (const issue of result.issues)
        issues.push({ ...issue, path: ['data', i, ...(issue.path ?? [])] });
    else data.push(result.value);
  }
  for (const key of fields) {
    if (key === 'next') {
      if (page.next !== null && typeof page.next !== 'string')
        issues.push({ message: 'must be a cursor or null', path: [key] });
    } else if (!Number.isInteger(page[key])) {
      issues.push({ message: 'must be a whole number', path: [key] });
    }
  }
  return issues.length ? { issues } : { value: { ...page, data } };
}

/**
 * Builds the page `paginated(…)` describes from one page of items, the total count and the
 * validated query: by page with a `pagination()` query, by offset with a `mode: 'offset'` one.
 * @example return paginate(await repo.list(c.query.offset, c.query.limit), await repo.count(), c.query);
 */
export function paginate<T>(
  items: readonly T[],
  total: number,
  query: Pick<PageQuery, 'page' | 'limit'>,
): Page<T>;
/** A page of a list paged by offset. */
export function paginate<T>(items: readonly T[], total: number, query: OffsetQuery): OffsetPage<T>;
/**
 * A page of a list paged by cursor, from up to `limit + 1` items read after `query.after`: one
 * more than the page holds says there is a next page, whose cursor `cursorOf` makes from the
 * page's last item.
 * @example return paginate(await repo.after(c.query.after, c.query.limit + 1), c.query, (a) => String(a.id));
 */
export function paginate<T>(
  items: readonly T[],
  query: CursorQuery,
  cursorOf: (item: T) => string,
): CursorPage<T>;
export function paginate<T>(
  items: readonly T[],
  totalOrQuery: number | CursorQuery,
  queryOrCursor: Pick<PageQuery, 'page' | 'limit'> | OffsetQuery | ((item: T) => string),
): Page<T> | OffsetPage<T> | CursorPage<T> {
  if (typeof totalOrQuery !== 'number') {
    const { limit } = totalOrQuery;
    const more = items.length > limit;
    const data = items.slice(0, limit);
    const last = data[data.length - 1];
    const cursorOf = queryOrCursor as (item: T) => string;
    return { data, limit, next: more && last !== undefined ? cursorOf(last) : null };
  }
  const total = totalOrQuery;
  const query = queryOrCursor as Partial<PageQuery> & { limit: number };
  if (query.page === undefined) {
    return { data: items as T[], offset: query.offset ?? 0, limit: query.limit, total };
  }
  return {
    data: items as T[],
    page: query.page,
    limit: query.limit,
    total,
    totalPages: query.limit > 0 ? Math.ceil(total / query.limit) : 0,
  };
}
