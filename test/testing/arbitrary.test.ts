import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonSchema } from '../../src/docs/types.js';
import { Arbitraries } from '../../src/testing/arbitrary.js';
import { peers } from '../../src/testing/peers.js';

// What keelson/testing generates from a schema: values the schema accepts (checked with Ajv),
// spread over what it allows (bounds reached, optional parts both present and absent).

const { fc, newAjv } = await peers();
const ajv = newAjv();
const SEED = 42;

const components: Record<string, JsonSchema> = {
  // A tree that refers to itself: generation must stop nesting.
  Node: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
    },
    required: ['name'],
  },
  'Odd Name': { type: 'integer', minimum: 7, maximum: 7 },
  Loop: { $ref: '#/components/schemas/Loop' },
};

function sample(schema: JsonSchema, plain = false, runs = 300): unknown[] {
  return fc.sample(new Arbitraries(fc, components).of(schema, plain), {
    seed: SEED,
    numRuns: runs,
  });
}

/** Every sample is valid against the schema (with the components in scope). */
function validSamples(schema: JsonSchema, plain = false): unknown[] {
  const validate = ajv.compile({
    ...schema,
    $defs: {},
    components: { schemas: components },
  } as object);
  const values = sample(schema, plain);
  for (const v of values) {
    if (!validate(v))
      throw new Error(
        `${JSON.stringify(v)} fails ${JSON.stringify(schema)}: ${ajv.errorsText(validate.errors)}`,
      );
  }
  return values;
}

describe('arbitraries from schemas', () => {
  it('give only values the schema accepts, for each kind of schema', () => {
    const schemas: JsonSchema[] = [
      { const: 'fixed' },
      { enum: ['a', 'b', 3] },
      { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'null' }] },
      { oneOf: [{ type: 'boolean' }, { type: 'integer', minimum: 0, maximum: 3 }] },
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
          {
            type: 'object',
            properties: { b: { $ref: '#/components/schemas/Odd%20Name' } },
            required: ['b'],
          },
        ],
      },
      { type: ['string', 'null'], maxLength: 3 },
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'date' },
      { type: 'string', format: 'email' },
      { type: 'string', format: 'uuid' },
      { type: 'string', format: 'uri' },
      { type: 'string', pattern: '^[a-f]{2,4}$', minLength: 3, maxLength: 3 },
      { type: 'string', minLength: 2, maxLength: 5 },
      { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 },
      { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      { type: 'number', minimum: -2, maximum: 2 },
      { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], items: false },
      { type: 'array', items: { type: 'boolean' }, minItems: 2, maxItems: 4 },
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'integer' },
      },
      { type: 'object', properties: {}, required: ['ghost'] } as JsonSchema,
      { $ref: '#/components/schemas/Node' },
      { $ref: '#/components/schemas/Odd%20Name' },
      {},
    ];
    for (const schema of schemas) {
      if ((schema.required as string[] | undefined)?.includes('ghost')) {
        // A required name without a property: nothing to generate it from, and no crash.
        expect(sample(schema).every((v) => typeof v === 'object' && v !== null)).toBe(true);
        continue;
      }
      expect(validSamples(schema).length).toBe(300);
    }
  });

  it('reach the bounds a schema sets, and not past them', () => {
    expect(new Set(sample({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 }))).toEqual(
      new Set([1, 2]),
    );
    expect(new Set(sample({ type: 'integer', minimum: 5, maximum: 6 }))).toEqual(new Set([5, 6]));
    const wide = sample({ type: 'integer' }) as number[];
    expect(Math.min(...wide)).toBeLessThan(0);
    expect(Math.max(...wide)).toBeGreaterThan(0);
    const lengths = sample({
      type: 'array',
      items: { type: 'null' },
      minItems: 1,
      maxItems: 3,
    }).map((a) => (a as unknown[]).length);
    expect(new Set(lengths)).toEqual(new Set([1, 2, 3]));
    // Ajv's `url` format is stricter than URLs are; web URLs either way.
    const urls = sample({ type: 'string', format: 'url' }) as string[];
    expect(urls.every((u) => /^https?:\/\//.test(u))).toBe(true);
    const dates = sample({ type: 'string', format: 'date' }) as string[];
    expect(dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    const patterned = sample({
      type: 'string',
      pattern: '^x+$',
      minLength: 2,
      maxLength: 3,
    }) as string[];
    expect(new Set(patterned)).toEqual(new Set(['xx', 'xxx']));
  });

  it('leave optional properties out sometimes and required ones never', () => {
    const values = sample({
      type: 'object',
      properties: { id: { type: 'integer' }, note: { type: 'string' } },
      required: ['id'],
    }) as Record<string, unknown>[];
    expect(values.every((v) => 'id' in v)).toBe(true);
    expect(values.some((v) => 'note' in v)).toBe(true);
    expect(values.some((v) => !('note' in v))).toBe(true);
    const extra = sample({
      type: 'object',
      properties: { a: { type: 'boolean' } },
      additionalProperties: { type: 'integer' },
    }) as Record<string, unknown>[];
    expect(extra.some((v) => Object.keys(v).some((k) => k !== 'a'))).toBe(true);
    expect(extra.every((v) => Object.keys(v).filter((k) => k !== 'a').length <= 3)).toBe(true);
    expect(extra.every((v) => !('a' in v) || typeof v.a === 'boolean')).toBe(true);
  });

  it('keep plain strings to URL- and header-safe characters, and never empty', () => {
    const plain = sample({ type: 'string' }, true) as string[];
    expect(plain.every((s) => /^[A-Za-z0-9_-]+$/.test(s))).toBe(true);
    const any = sample({ type: 'string' }) as string[];
    expect(any.some((s) => s === '')).toBe(true);
    expect(any.some((s) => /[^A-Za-z0-9_-]/.test(s))).toBe(true);
    expect(Math.max(...any.map((s) => s.length))).toBeLessThanOrEqual(12);
  });

  it('stop nesting a self-referring schema, and end a ref that names itself', () => {
    const depth = (n: { children?: unknown[] }): number =>
      1 + Math.max(0, ...((n.children ?? []) as { children?: unknown[] }[]).map(depth));
    const trees = sample({ $ref: '#/components/schemas/Node' }) as { children?: unknown[] }[];
    expect(Math.max(...trees.map(depth))).toBeGreaterThan(1);
    expect(Math.max(...trees.map(depth))).toBeLessThanOrEqual(4);
    const arbitraries = new Arbitraries(fc, components);
    expect(arbitraries.resolve({ $ref: '#/components/schemas/Loop' })).toEqual({
      $ref: '#/components/schemas/Loop',
    });
    expect(arbitraries.resolve({ $ref: '#/components/schemas/Missing' })).toEqual({});
    // Untyped values nest a little, then stop.
    const untyped = sample({
      type: 'array',
      items: { type: 'array', items: { type: 'array', items: { type: 'array', items: {} } } },
    });
    expect(untyped.length).toBe(300);
  });

  it('satisfy a pattern stated with a format, and a multipleOf (what zod documents)', () => {
    const zodEmail = z.toJSONSchema(z.email()) as JsonSchema;
    expect(zodEmail.pattern).toBeTypeOf('string');
    const re = new RegExp(String(zodEmail.pattern));
    const emails = validSamples(zodEmail);
    expect(emails.every((e) => re.test(String(e)))).toBe(true);
    expect(new Set(emails).size).toBeGreaterThan(200);
    validSamples(z.toJSONSchema(z.iso.datetime()) as JsonSchema);
    validSamples(z.toJSONSchema(z.uuid()) as JsonSchema);
    validSamples({ type: 'string', format: 'email', pattern: '^[a-z]+@example\\.com$' });
    const fives = validSamples({ type: 'integer', multipleOf: 5, minimum: 3, maximum: 40 });
    expect(new Set(fives)).toEqual(new Set([5, 10, 15, 20, 25, 30, 35, 40]));
    const steps = validSamples({
      type: 'number',
      multipleOf: 0.25,
      exclusiveMinimum: 0,
      maximum: 1,
    });
    expect(new Set(steps)).toEqual(new Set([0.25, 0.5, 0.75, 1]));
    validSamples({ type: 'string', format: 'ipv4' });
    // Not a Unicode-mode pattern (`\_`): read as a plain one rather than thrown on.
    expect(sample({ type: 'string', pattern: '^a\\_b$' }, false, 3)).toEqual(['a_b', 'a_b', 'a_b']);
  });
});
