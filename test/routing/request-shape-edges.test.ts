import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compose } from '../../src/routing/compose.js';
import type { Context } from '../../src/routing/context.js';
import { headerShape, queryShape } from '../../src/routing/request-shape.js';
import { compileResponseCheck, responseMismatch } from '../../src/routing/response-check.js';
import { describesOnly, staticSchema } from '../../src/routing/static-schema.js';

/** A schema whose library answers `input` with the given draft-07 JSON Schema, nothing else. */
function withInput(json: unknown): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => ({ value }),
      jsonSchema: {
        input: ({ target }: { target: string }) => {
          if (target !== 'draft-07') throw new Error(`no ${target}`);
          return json;
        },
      },
    } as StandardSchemaV1['~standard'],
  };
}

describe('query shapes from hand-written JSON Schemas', () => {
  it('wrap a lone value for array parameters declared through type lists and anyOf/oneOf/allOf', () => {
    const shape = queryShape(
      withInput({
        type: 'object',
        properties: {
          list: { type: ['array', 'null'] },
          any: { anyOf: [{ type: 'array' }, { type: 'null' }] },
          one: { oneOf: [{ type: 'array' }] },
          all: { allOf: [{ type: 'array' }] },
          odd: null,
          name: { type: 'string' },
        },
      }),
    )!;
    expect(shape).toBeTypeOf('function');
    expect(
      shape({ list: 'a', any: 'b', one: 'c', all: 'd', odd: 'e', name: 'f', undefined: 'g' }),
    ).toEqual({
      list: ['a'],
      any: ['b'],
      one: ['c'],
      all: ['d'],
      odd: 'e',
      name: 'f',
      undefined: 'g',
    });
  });

  it('give no shape when the library gives no usable properties', () => {
    const none: StandardSchemaV1 = {
      '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) },
    };
    const throwing = {
      '~standard': {
        ...none['~standard'],
        jsonSchema: {
          input: () => {
            throw new Error('cannot');
          },
        },
      },
    } as StandardSchemaV1;
    for (const schema of [
      none,
      throwing,
      withInput({ type: 'object', properties: null }),
      withInput({ type: 'object' }),
    ]) {
      expect(queryShape(schema)).toBeUndefined();
      expect(headerShape(schema)).toBeUndefined();
    }
  });

  it('refuse an object query parameter, suggesting one parameter per field', () => {
    expect(() => queryShape(z.object({ owner: z.object({ id: z.string() }) }))).toThrow(
      new Error(
        'the query parameter "owner" is an object, which a query string cannot carry: declare one parameter per field (e.g. "ownerId") or take a JSON body',
      ),
    );
  });
});

describe('response checks', () => {
  it('name the failing field, unescaping / and ~ in its name', () => {
    const check = compileResponseCheck({
      type: 'object',
      properties: { 'a/b': { type: 'number' }, 'c~d': { type: 'number' } },
    });
    expect(check({ 'a/b': 'x' })).toBe('response.a/b must be number');
    expect(check({ 'c~d': 'x' })).toBe('response.c~d must be number');
    expect(check({ 'a/b': 1, 'c~d': 2 })).toBeUndefined();
  });

  it('neither coerce nor fill in defaults, and accept keywords they do not know', () => {
    const check = compileResponseCheck({
      type: 'object',
      'x-note': 'vendor keyword',
      properties: { n: { type: 'number' }, d: { type: 'number', default: 1 } },
    });
    expect(check({ n: '5' })).toBe('response.n must be number');
    const value = { n: 5 };
    expect(check(value)).toBeUndefined();
    expect(value).toEqual({ n: 5 });
  });

  it('let undeclared fields through but keep the other false schemas and additionalProperties', () => {
    const check = compileResponseCheck({
      type: 'object',
      properties: {
        open: { type: 'object', additionalProperties: false },
        typed: { type: 'object', additionalProperties: { type: 'number' } },
        never: false,
        maybe: { enum: [null, 1] },
      },
      additionalProperties: false,
    });
    expect(check({ open: { extra: 1 }, extra: 2, maybe: null })).toBeUndefined();
    expect(check({ typed: { a: 'x' } })).toBe('response.typed.a must be number');
    expect(check({ never: 1 })).toBe('response.never boolean schema is false');
  });

  it('answer a mismatch with a 500 that says nothing of the reason, which goes to the log', () => {
    const err = responseMismatch('route GET /x', 201, 'response.id is required');
    expect(err).toMatchObject({ statusCode: 500, message: 'The response could not be produced.' });
    expect((err as Error & { cause?: Error }).cause?.message).toBe(
      'route GET /x: the 201 response does not match its schema: response.id is required',
    );
  });
});

describe('static schemas and composition', () => {
  it('static schemas pass any value through and are known to describe only', () => {
    const schema = staticSchema<number>({ type: 'number' });
    expect(schema['~standard'].validate(5)).toEqual({ value: 5 });
    expect(describesOnly(schema)).toBe(true);
    expect(describesOnly(z.number())).toBe(false);
  });

  it('with no middleware the endpoint answers synchronously', () => {
    const endpoint = (): number => 7;
    expect(compose([], endpoint)({} as Context)).toBe(7);
  });
});
