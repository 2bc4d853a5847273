import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptsUndefined, toJsonSchema } from '../../src/docs/json-schema.js';
import type { Schema } from '../../src/routing/types.js';

// A schema's JSON Schema side, and whether a part may be left out: with the Standard Schema
// objects a library could hand over, well-formed or not.

/** A Standard Schema with the given converter and validate. */
function fake(
  convert: ((o: { target: string }) => unknown) | undefined,
  validate: (v: unknown) => unknown = () => ({ value: undefined }),
): Schema {
  return {
    '~standard': {
      version: 1,
      vendor: 'fake',
      validate,
      ...(convert ? { jsonSchema: { input: convert, output: convert } } : {}),
    },
  } as unknown as Schema;
}

describe('toJsonSchema', () => {
  it('asks the converter for draft 2020-12 and returns its object', () => {
    const targets: string[] = [];
    const json = toJsonSchema(
      fake((o) => {
        targets.push(o.target);
        return { type: 'string' };
      }),
      'input',
      'route GET /x: query',
    );
    expect(json).toEqual({ type: 'string' });
    expect(targets).toEqual(['draft-2020-12']);
    expect(toJsonSchema(z.object({ a: z.string() }), 'output', 'p')).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
    });
  });

  it('names the part when the value is no Standard Schema or its converter fails', () => {
    const cases: [unknown, string][] = [
      [undefined, 'p is not a Standard Schema value (Zod 4, Valibot, ArkType …)'],
      [{ '~standard': null }, 'p is not a Standard Schema value (Zod 4, Valibot, ArkType …)'],
      [{ '~standard': 'x' }, 'p is not a Standard Schema value (Zod 4, Valibot, ArkType …)'],
      [fake(() => 'nope'), 'p: its JSON Schema converter returned string, not an object'],
      [fake(() => null), 'p: its JSON Schema converter returned object, not an object'],
      [fake(() => []), 'p: its JSON Schema converter returned object, not an object'],
      [fake(() => undefined), 'p: its JSON Schema converter returned undefined, not an object'],
      [
        fake(() => {
          throw new Error('transforms have no JSON Schema');
        }),
        'p cannot be expressed as JSON Schema: transforms have no JSON Schema',
      ],
    ];
    for (const [schema, message] of cases) {
      expect(() => toJsonSchema(schema as Schema, 'input', 'p')).toThrow(new Error(message));
    }
    expect(() => toJsonSchema(fake(undefined), 'input', 'p')).toThrow(
      /^p \(vendor fake\) has no JSON Schema side/,
    );
  });
});

describe('acceptsUndefined', () => {
  it('is true only for a schema that validates undefined synchronously without issues', () => {
    expect(acceptsUndefined(z.string().optional())).toBe(true);
    expect(acceptsUndefined(z.string())).toBe(false);
    expect(acceptsUndefined(fake(undefined, () => Promise.resolve({ value: undefined })))).toBe(
      false,
    );
    expect(acceptsUndefined(fake(undefined, () => Promise.reject(new Error('x'))))).toBe(false);
    expect(
      acceptsUndefined(
        fake(undefined, () => {
          throw new Error('broken');
        }),
      ),
    ).toBe(false);
    expect(acceptsUndefined(fake(undefined, () => ({ issues: [{ message: 'no' }] })))).toBe(false);
    expect(acceptsUndefined(fake(undefined, () => ({ value: undefined })))).toBe(true);
  });

  it('asks each schema once', () => {
    let calls = 0;
    const schema = fake(undefined, () => {
      calls++;
      return { value: undefined };
    });
    expect(acceptsUndefined(schema)).toBe(true);
    expect(acceptsUndefined(schema)).toBe(true);
    expect(calls).toBe(1);
  });
});
