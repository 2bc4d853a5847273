import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { headerShape, queryShape } from '../../src/routing/request-shape.js';
import { compileResponseCheck } from '../../src/routing/response-check.js';

describe('request shapes', () => {
  it('wraps a lone value only for parameters that take an array and no string', () => {
    const shape = queryShape(
      z.object({
        tags: z.array(z.string()).optional(),
        either: z.union([z.string(), z.array(z.string())]),
        ids: z.array(z.coerce.number()),
        name: z.string(),
      }),
    )!;
    expect(shape({ tags: 'a', either: 'b', ids: '1', name: 'n' })).toEqual({
      tags: ['a'],
      either: 'b',
      ids: ['1'],
      name: 'n',
    });
    expect(shape({ tags: ['a', 'b'] })).toEqual({ tags: ['a', 'b'] });
  });

  it('costs nothing for a query schema without array parameters, or one with no JSON Schema', () => {
    expect(queryShape(z.object({ q: z.string(), n: z.coerce.number() }))).toBeUndefined();
    expect(queryShape(v.object({ tags: v.array(v.string()) }))).toBeUndefined();
  });

  it('refuses object and record query parameters', () => {
    expect(() => queryShape(z.object({ where: z.record(z.string(), z.string()) }))).toThrow(
      'the query parameter "where" is an object',
    );
  });

  it('gives mixed-case header names the value of their lower-case header, and leaves the rest', () => {
    const shape = headerShape(z.object({ 'X-Api-Version': z.string(), accept: z.string() }))!;
    const raw = { 'x-api-version': '2', accept: '*/*' };
    expect(shape(raw)).toEqual({ 'x-api-version': '2', 'X-Api-Version': '2', accept: '*/*' });
    expect(raw).toEqual({ 'x-api-version': '2', accept: '*/*' });
    expect(headerShape(z.object({ accept: z.string() }))).toBeUndefined();
  });
});

describe('response checks', () => {
  it('names the first wrong field, nested ones and array items included', () => {
    const check = compileResponseCheck(
      z
        .object({ user: z.object({ tags: z.array(z.string()) }) })
        ['~standard'].jsonSchema.output({ target: 'draft-07' }),
    );
    expect(check({ user: { tags: ['a'] }, extra: 1 })).toBeUndefined();
    expect(check({ user: { tags: ['a', 2] } })).toBe('response.user.tags.1 must be string');
    expect(check({ user: {} })).toBe('response.user.tags is required');
    expect(check('x')).toBe('response must be object');
  });

  it('never changes the value it checks', () => {
    const check = compileResponseCheck({
      type: 'object',
      properties: {
        n: { type: 'number', default: 1 },
        inner: { type: 'object', additionalProperties: false },
      },
      additionalProperties: false,
    });
    const value = { inner: { a: 1 }, s: '1' };
    expect(check(value)).toBeUndefined();
    expect(value).toEqual({ inner: { a: 1 }, s: '1' });
  });

  it('compiles one check per JSON Schema value, shared by every route that answers with it', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' } } };
    const first = compileResponseCheck(schema);
    expect(compileResponseCheck(schema)).toBe(first);
    const other = compileResponseCheck({ type: 'object', properties: { id: { type: 'string' } } });
    expect(other).not.toBe(first);
    expect(other({ id: 1 })).toBe('response.id must be string');
    expect(first({ id: 1 })).toBeUndefined();
  });
});
