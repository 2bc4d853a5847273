/**
 * Page-based pagination: a query schema that parses `page` and `limit` into
 * `c.query.page/limit/offset`, without a schema library in the core.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Schema } from './schema-types.js';

/** The pagination part of a validated query: 1-based `page`, `limit`, and the `offset` they give. */
export interface PageQuery {
  /** The page asked for, from 1. */
  page: number;
  /** Items per page, from 1 to `maxLimit`. */
  limit: number;
  /** `(page - 1) * limit`: how many items come before this page. */
  offset: number;
}

/** The pagination query as a client sends it. */
export interface PageQueryInput {
  /** @default 1 */
  page?: string | number;
  /** @default the defaultLimit */
  limit?: string | number;
}

/** Options of `pagination`. */
export interface PaginationOptions {
  /** The limit when the client gives none. @default 20 */
  defaultLimit?: number;
  /** The largest limit a client may ask for. @default 100 */
  maxLimit?: number;
}

/** A query schema that is both a Standard Schema and a Standard JSON Schema. */
export type QuerySchema<In, Out> = StandardSchemaV1<In, Out> & StandardJSONSchemaV1<In, Out>;

const DIGITS = /^[0-9]{1,15}$/;

type Issue = StandardSchemaV1.Issue;

function parseCount(
  raw: unknown,
  name: string,
  fallback: number,
  max: number,
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
  if (n >= 1 && n <= max) return n;
  const range = max === Number.MAX_SAFE_INTEGER ? 'at least 1' : `from 1 to ${max}`;
  issues.push({ message: `must be a whole number ${range}`, path: [name] });
  return fallback;
}

/**
 * The query schema of a paginated list: `?page=2&limit=50` gives `c.query.page`, `c.query.limit`
 * and `c.query.offset`; a page below 1, a limit below 1 or above `maxLimit`, or a value that is
 * not a whole number answers 422. `also` adds the route's other query parameters.
 * @example get('/articles', { query: pagination({ maxLimit: 50 }) }, (c) => list(c.query.offset, c.query.limit))
 */
export function pagination(options?: PaginationOptions): QuerySchema<PageQueryInput, PageQuery>;
/** The same, merged with a schema of the route's other query parameters (a zod object). */
export function pagination<S extends Schema>(
  options: PaginationOptions,
  also: S,
): QuerySchema<
  PageQueryInput & StandardSchemaV1.InferInput<S>,
  PageQuery & StandardSchemaV1.InferOutput<S>
>;
export function pagination(
  { defaultLimit = 20, maxLimit = 100 }: PaginationOptions = {},
  also?: Schema,
): QuerySchema<PageQueryInput, PageQuery> {
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
  const properties = {
    page: { type: 'integer', minimum: 1, default: 1, description: 'The page, from 1.' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: maxLimit,
      default: defaultLimit,
      description: 'Items per page.',
    },
  };
  const own = (value: unknown): StandardSchemaV1.Result<PageQuery> => {
    const query = (typeof value === 'object' && value !== null ? value : {}) as PageQueryInput;
    const issues: Issue[] = [];
    const page = parseCount(query.page, 'page', 1, Number.MAX_SAFE_INTEGER, issues);
    const limit = parseCount(query.limit, 'limit', defaultLimit, maxLimit, issues);
    return issues.length ? { issues } : { value: { page, limit, offset: (page - 1) * limit } };
  };
  const validate = also ? merged(own, also) : own;
  const json = (side: 'input' | 'output', target: string): Record<string, unknown> => {
    const extra = also ? otherJson(also, side, target) : { properties: {}, required: [] };
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
      validate: validate as (value: unknown) => StandardSchemaV1.Result<PageQuery>,
      jsonSchema: {
        input: ({ target }) => json('input', target),
        output: ({ target }) => json('output', target),
      },
    },
  };
}

function merged(
  own: (value: unknown) => StandardSchemaV1.Result<PageQuery>,
  also: Schema,
): (
  value: unknown,
) => StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>> {
  const combine = (a: StandardSchemaV1.Result<PageQuery>, b: StandardSchemaV1.Result<unknown>) => {
    if (a.issues || b.issues) return { issues: [...(a.issues ?? []), ...(b.issues ?? [])] };
    return { value: { ...(b.value as object), ...a.value } };
  };
  return (value) => {
    // The other schema must not see page and limit: a strict object would refuse them.
    const { page: _p, limit: _l, ...rest } = (value ?? {}) as Record<string, unknown>;
    const mine = own(value);
    const theirs = also['~standard'].validate(rest);
    return theirs instanceof Promise ? theirs.then((b) => combine(mine, b)) : combine(mine, theirs);
  };
}

function otherJson(
  also: Schema,
  side: 'input' | 'output',
  target: string,
): { properties: Record<string, unknown>; required: string[] } {
  const std = also['~standard'] as Schema['~standard'] & Partial<StandardJSONSchemaV1['~standard']>;
  const json = std.jsonSchema?.[side]({ target }) as
    | { properties?: Record<string, unknown>; required?: string[] }
    | undefined;
  if (!json) throw new Error('pagination: the other query schema has no JSON Schema side');
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}
