import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { paginate, paginated } from '../../src/index.js';

// paginated(item) as a schema of its own: what it accepts, what it says, what it documents.

type Result = {
  value?: unknown;
  issues?: readonly { message: string; path?: readonly unknown[] }[];
};

/** An item schema: `{ id }` with a whole-number id, its output doubling the id. */
const item: StandardSchemaV1 & StandardJSONSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (v: unknown) => {
      const id = (v as { id?: unknown } | null)?.id;
      if (v === 'bare') return { issues: [{ message: 'not an item' }] };
      return Number.isInteger(id)
        ? { value: { id: (id as number) * 2 } }
        : { issues: [{ message: 'id must be whole', path: ['id'] }] };
    },
    jsonSchema: {
      input: () => ({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { Id: { type: 'integer' } },
      }),
      output: () => ({ type: 'object', definitions: { Id: { type: 'integer' } } }),
    },
  },
} as never;

const validate = (value: unknown) =>
  paginated(item)['~standard'].validate(value) as unknown as Promise<Result>;

const page = (data: unknown[], more: Record<string, unknown> = {}) => ({
  data,
  page: 1,
  limit: 10,
  total: data.length,
  totalPages: 1,
  ...more,
});

describe('paginated(item) validates', () => {
  it('a page, giving each item’s output', async () => {
    expect(await validate(page([{ id: 1 }, { id: 2 }]))).toEqual({
      value: page([{ id: 2 }, { id: 4 }], { total: 2 }),
    });
  });

  it('refuses what is not a page', async () => {
    for (const bad of [null, 'x', { data: 'no' }]) {
      expect(await validate(bad)).toEqual({
        issues: [{ message: 'must be a page: { data: [...], page, limit, total, totalPages }' }],
      });
    }
  });

  it('places each item’s issues under data and its index', async () => {
    expect(await validate(page([{ id: 1 }, { id: 'x' }, 'bare']))).toEqual({
      issues: [
        { message: 'id must be whole', path: ['data', 1, 'id'] },
        { message: 'not an item', path: ['data', 2] },
      ],
    });
  });

  it('wants whole numbers for page, limit, total and totalPages', async () => {
    const result = await validate({ data: [], page: 1.5, limit: '10', total: null });
    expect(result.issues).toEqual(
      ['page', 'limit', 'total', 'totalPages'].map((key) => ({
        message: 'must be a whole number',
        path: [key],
      })),
    );
  });
});

describe('paginated(item) refuses', () => {
  it('something that is not a Standard Schema', () => {
    for (const bad of [undefined, {}, { '~standard': {} }]) {
      expect(() => paginated(bad as never)).toThrow(
        new TypeError('paginated takes the Standard Schema of one item, such as z.object({ … })'),
      );
    }
  });

  it('to document an item schema with no JSON Schema side, naming its vendor', () => {
    const bare = { '~standard': { version: 1, vendor: 'bare', validate: () => ({ value: 1 }) } };
    const std = paginated(bare as never)['~standard'];
    expect(() => std.jsonSchema.input({ target: 'draft-2020-12' })).toThrow(
      'the item schema (vendor bare) has no JSON Schema side',
    );
  });
});

describe('paginated(item) documents', () => {
  const shape = (items: unknown) => ({
    type: 'object',
    properties: {
      data: { type: 'array', items },
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
      total: { type: 'integer', minimum: 0 },
      totalPages: { type: 'integer', minimum: 0 },
    },
    required: ['data', 'page', 'limit', 'total', 'totalPages'],
    additionalProperties: false,
  });

  it('the page, the item’s definitions moved to its root', () => {
    const std = paginated(item)['~standard'];
    expect(std.vendor).toBe('keelson');
    expect(std.jsonSchema.input({ target: 'draft-2020-12' })).toEqual({
      ...shape({ type: 'object' }),
      $defs: { Id: { type: 'integer' } },
    });
    expect(std.jsonSchema.output({ target: 'draft-07' })).toEqual({
      ...shape({ type: 'object' }),
      definitions: { Id: { type: 'integer' } },
    });
  });
});

describe('paginate', () => {
  it('counts the pages, rounding up, and none for a limit of 0', () => {
    expect(paginate([], 21, { page: 1, limit: 10 }).totalPages).toBe(3);
    expect(paginate([], 20, { page: 1, limit: 10 }).totalPages).toBe(2);
    expect(paginate([], 0, { page: 1, limit: 10 }).totalPages).toBe(0);
    expect(paginate([], 5, { page: 1, limit: 0 }).totalPages).toBe(0);
  });
});
