/**
 * The answer of a paginated list: `{ data, page, limit, total, totalPages }`.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { PageQuery, QuerySchema } from './pagination.js';
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

type Json = Record<string, unknown>;

const COUNT = { type: 'integer', minimum: 0 };

// The item's definitions move to the root of the page's schema, where its `$ref`s point.
function pageJson(item: Json): Json {
  const { $schema: _schema, $defs, definitions, ...root } = item;
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: root },
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
      total: COUNT,
      totalPages: COUNT,
    },
    required: ['data', 'page', 'limit', 'total', 'totalPages'],
    additionalProperties: false,
    ...($defs ? { $defs } : {}),
    ...(definitions ? { definitions } : {}),
  };
}

/**
 * The response schema of one page of `itemSchema` items; documented in OpenAPI like any schema.
 * @example get('/articles', { query: pagination(), responses: { 200: paginated(Article) } }, …)
 */
export function paginated<S extends Schema>(
  itemSchema: S,
): QuerySchema<Page<StandardSchemaV1.InferInput<S>>, Page<StandardSchemaV1.InferOutput<S>>> {
  const std = itemSchema?.['~standard'] as
    | (Schema['~standard'] & Partial<StandardJSONSchemaV1['~standard']>)
    | undefined;
  if (!std || typeof std.validate !== 'function') {
    throw new TypeError('paginated takes the Standard Schema of one item, such as z.object({ … })');
  }
  const jsonSide = (side: 'input' | 'output') => (options: { target: string }) => {
    const convert = std.jsonSchema?.[side];
    if (!convert) throw new Error(`the item schema (vendor ${std.vendor}) has no JSON Schema side`);
    return pageJson(convert.call(std.jsonSchema, options) as Json);
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'keelson',
      validate: (value) => validatePage(std, value) as never,
      jsonSchema: { input: jsonSide('input'), output: jsonSide('output') },
    },
  };
}

async function validatePage(
  item: Schema['~standard'],
  value: unknown,
): Promise<StandardSchemaV1.Result<Page<unknown>>> {
  const page = value as Partial<Page<unknown>> | null;
  if (typeof page !== 'object' || page === null || !Array.isArray(page.data)) {
    return {
      issues: [{ message: 'must be a page: { data: [...], page, limit, total, totalPages }' }],
    };
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
  for (const key of ['page', 'limit', 'total', 'totalPages'] as const) {
    if (!Number.isInteger(page[key]))
      issues.push({ message: 'must be a whole number', path: [key] });
  }
  return issues.length ? { issues } : { value: { ...(page as Page<unknown>), data } };
}

/**
 * Builds the page `paginated(…)` describes from one page of items, the total count and the
 * validated query.
 * @example return paginate(await repo.list(c.query.offset, c.query.limit), await repo.count(), c.query);
 */
export function paginate<T>(
  items: readonly T[],
  total: number,
  query: Pick<PageQuery, 'page' | 'limit'>,
): Page<T> {
  return {
    data: items as T[],
    page: query.page,
    limit: query.limit,
    total,
    totalPages: query.limit > 0 ? Math.ceil(total / query.limit) : 0,
  };
}
