import { describe, expect, it } from 'vitest';
import { breakingChanges, diffOpenApi } from '../../src/openapi-diff/index.js';
import { changed, type Doc } from './documents.js';

const GET = (doc: Doc) => doc.paths['/users/{id}'].get;
const lines = (base: Doc, current: Doc) =>
  diffOpenApi(base, current).map((c) => `${c.breaking ? '!' : '-'} ${c.code}: ${c.message}`);

/** A document whose one GET answers `response` and takes `request` as a JSON body. */
function api(request: object, response: object): Doc {
  return changed((d) => {
    delete d.paths['/users'];
    GET(d).requestBody = { content: { 'application/json': { schema: request } } };
    GET(d).responses = { 200: { content: { 'application/json': { schema: response } } } };
  });
}

describe('types', () => {
  it("reads OpenAPI 3.0's nullable as the type null, once", () => {
    const base = api({ type: 'string' }, { type: 'string' });
    const now = api({ type: 'string', nullable: true }, { type: 'string', nullable: true });
    expect(lines(base, now)).toEqual([
      '- type-widened: type of request body widened: string → string|null',
      '! type-widened: type of response 200 widened: string → string|null',
    ]);
    const both = api({ type: ['string', 'null'] }, { type: ['string', 'null'], nullable: true });
    expect(lines(now, both)).toEqual([]);
  });

  it('reads integer as part of number: number → integer narrows, integer → number widens', () => {
    const int = api({ type: 'integer' }, { type: 'integer' });
    const num = api({ type: 'number' }, { type: 'number' });
    expect(lines(int, num)).toEqual([
      '- type-widened: type of request body widened: integer → number',
      '! type-widened: type of response 200 widened: integer → number',
    ]);
    expect(lines(num, int)).toEqual([
      '! type-narrowed: type of request body narrowed: number → integer',
      '- type-narrowed: type of response 200 narrowed: number → integer',
    ]);
  });

  it('reads a schema without type as any type', () => {
    const typed = api({ type: 'string' }, { type: 'string' });
    const any = api({}, {});
    expect(lines(typed, any)).toEqual([
      '- type-widened: type of request body widened: string → any',
      '! type-widened: type of response 200 widened: string → any',
    ]);
    expect(lines(any, typed)).toEqual([
      '! type-narrowed: type of request body narrowed: any → string',
      '- type-narrowed: type of response 200 narrowed: any → string',
    ]);
  });
});

describe('enums and const', () => {
  it('reads an enum or const that appears as a narrowing, and one that goes as a widening', () => {
    const open = api({ type: 'string' }, { type: 'string' });
    const limited = api({ type: 'string', const: 'a' }, { type: 'string', enum: ['a', 'b'] });
    expect(lines(open, limited)).toEqual([
      '! constraint-narrowed: request body now limited to ["a"]',
      '- constraint-narrowed: response 200 now limited to ["a","b"]',
    ]);
    expect(diffOpenApi(open, limited).map((c) => c.location.split('/').pop())).toEqual([
      'const',
      'enum',
    ]);
    expect(lines(limited, open)).toEqual([
      '- constraint-widened: request body no longer limited to ["a"]',
      '! constraint-widened: response 200 no longer limited to ["a","b"]',
    ]);
  });
});

describe('bounds', () => {
  const all = {
    minimum: 1,
    exclusiveMinimum: 1,
    minLength: 1,
    minItems: 1,
    minProperties: 1,
    maximum: 9,
    exclusiveMaximum: 9,
    maxLength: 9,
    maxItems: 9,
    maxProperties: 9,
    pattern: '^a',
    format: 'email',
    multipleOf: 2,
    uniqueItems: true,
  };
  const tighter = {
    ...all,
    ...{ minimum: 2, exclusiveMinimum: 2, minLength: 2, minItems: 2, minProperties: 2 },
    ...{ maximum: 8, exclusiveMaximum: 8, maxLength: 8, maxItems: 8, maxProperties: 8 },
    ...{ pattern: '^b', format: 'uri', multipleOf: 3 },
  };

  it('compares every bounding keyword: raised minimums and lowered maximums narrow', () => {
    const found = diffOpenApi(api(all, {}), api(tighter, {}));
    expect(found.map((c) => [c.breaking, c.code, c.location.split('/').pop()])).toEqual([
      ...['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'].map((k) => [
        true,
        'constraint-narrowed',
        k,
      ]),
      ...['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'].map((k) => [
        true,
        'constraint-narrowed',
        k,
      ]),
      ...['pattern', 'format', 'multipleOf'].map((k) => [true, 'constraint-narrowed', k]),
    ]);
    expect(found[0]?.message).toBe('minimum of request body narrowed: 1 → 2');
    expect(found[10]?.message).toBe('pattern of request body changed: "^a" → "^b"');
    expect(lines(api(tighter, {}), api(all, {}))).toContain(
      '- constraint-widened: maxLength of request body widened: 8 → 9',
    );
    expect(lines(api(tighter, {}), api(all, {}))).toContain(
      '- constraint-widened: minimum of request body widened: 2 → 1',
    );
  });

  it('reads a bound removed, or uniqueItems turned off, as a widening', () => {
    const found = lines(api(all, {}), api({ uniqueItems: false }, {}));
    expect(found).toHaveLength(14);
    expect(found).toContain(
      '- constraint-widened: uniqueItems of request body widened: true → false',
    );
    expect(found).toContain('- constraint-widened: minimum of request body widened: 1 → none');
    expect(lines(api({}, {}), api({ uniqueItems: true }, {}))).toEqual([
      '! constraint-narrowed: uniqueItems of request body narrowed: none → true',
    ]);
  });
});

describe('objects, arrays and variants', () => {
  it('compares items that appear on one side only', () => {
    const base = api({ type: 'array' }, { type: 'array' });
    const now = api(
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { type: 'string' } },
    );
    expect(lines(base, now)).toEqual([
      '! type-narrowed: type of request field [] narrowed: any → string',
      '- type-narrowed: type of response field [] narrowed: any → string',
    ]);
  });

  it('reads an object described by required or additionalProperties alone', () => {
    const base = api({ required: ['a'] }, { additionalProperties: { type: 'string' } });
    const now = api({ required: ['a', 'b'] }, { additionalProperties: { type: 'integer' } });
    expect(lines(base, now)).toEqual([
      '! property-added: required request field added: b',
      '! type-changed: type of response field * changed: string → integer',
    ]);
    expect(diffOpenApi(base, now)[1]?.location).toBe(
      '#/paths/~1users~1{id}/get/responses/200/content/application~1json/schema/additionalProperties/type',
    );
  });

  it('ignores a required list that is no list, and names in it that are no strings', () => {
    const base = api({ type: 'object', required: 'a' }, {});
    expect(lines(base, api({ type: 'object', required: [7] }, {}))).toEqual([]);
  });

  it('breaks a request whose object is closed by unevaluatedProperties', () => {
    const open = api({ type: 'object', properties: { a: {} } }, {});
    const closed = api({ type: 'object', properties: { a: {} }, unevaluatedProperties: false }, {});
    expect(lines(open, closed)).toEqual([
      '! constraint-narrowed: request body no longer accepts other fields',
    ]);
    expect(lines(closed, open)).toEqual([]);
  });

  it('pairs oneOf variants by type, then in order, and names the ones left', () => {
    const base = api({ oneOf: [{ type: 'string' }, { type: 'integer', maximum: 5 }] }, {});
    const moved = api({ oneOf: [{ type: 'integer', maximum: 4 }, { type: 'string' }] }, {});
    expect(lines(base, moved)).toEqual([
      '! constraint-narrowed: maximum of request body narrowed: 5 → 4',
    ]);
    const retyped = api({ oneOf: [{ type: 'boolean' }, { type: 'integer', maximum: 5 }] }, {});
    expect(lines(base, retyped)).toEqual([
      '! type-changed: type of request body changed: string → boolean',
    ]);
    const fewer = api({ oneOf: [{ type: 'integer', maximum: 5 }] }, {});
    expect(lines(base, fewer)).toEqual([
      '! variant-removed: request body no longer accepts string',
    ]);
    expect(diffOpenApi(base, fewer)[0]?.location).toBe(
      '#/paths/~1users~1{id}/get/requestBody/content/application~1json/schema/oneOf/0',
    );
  });

  it('names a $ref variant by its component', () => {
    const base = api({}, { anyOf: [{ $ref: '#/components/schemas/User' }] });
    const now = api(
      {},
      { anyOf: [{ $ref: '#/components/schemas/User' }, { $ref: '#/components/schemas/Problem' }] },
    );
    expect(lines(base, now)).toEqual(['! variant-added: response 200 may now send Problem']);
  });
});

describe('allOf', () => {
  it('compares the parts of an allOf in order, one added or removed against an empty schema', () => {
    const base = api({ allOf: [{ type: 'object' }] }, {});
    const now = api({ allOf: [{ type: 'object' }, { required: ['a'] }] }, {});
    expect(lines(base, now)).toEqual(['! property-added: required request field added: a']);
    expect(lines(now, base)).toEqual([
      '- property-removed: request field removed: a (now ignored)',
    ]);
  });
});

describe('the version that accepts breaks', () => {
  const removed = (base: unknown, current: unknown) =>
    breakingChanges(
      changed((d) => {
        d.info.version = base;
      }),
      changed((d) => {
        d.info.version = current;
        delete d.paths['/users/{id}'];
      }),
    ).length;

  it('reads majors and minors of more than one digit, and 0.x → 1.0 as a raise', () => {
    expect(removed('9.0.0', '10.0.0')).toBe(0);
    expect(removed('0.9.0', '0.10.0')).toBe(0);
    expect(removed('0.3.1', '1.0.0')).toBe(0);
    expect(removed('v1.2', 'v2.0')).toBe(0);
  });

  it('reads a lowered major as no raise, whatever its minor', () => {
    expect(removed('1.2.0', '0.3.0')).toBe(1);
  });

  it('accepts nothing without two readable versions', () => {
    expect(removed(undefined, '2.0.0')).toBe(1);
    expect(removed('1.0.0', 3.1)).toBe(1);
    expect(removed('1.0.0', 'release 2.0')).toBe(1);
    expect(removed('1.0.0', '1.0.0')).toBe(1);
  });
});
