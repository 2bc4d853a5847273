import { describe, expect, it } from 'vitest';
import { breakingChanges, diffOpenApi } from '../../src/openapi-diff/index.js';
import { baseDocument, changed, type Doc } from './documents.js';

const S = (doc: Doc) => doc.components.schemas;
const GET = (doc: Doc) => doc.paths['/users/{id}'].get;
const POST = (doc: Doc) => doc.paths['/users'].post;
const lines = (base: Doc, current: Doc) =>
  diffOpenApi(base, current).map((c) => `${c.breaking ? '!' : '-'} ${c.code}: ${c.message}`);

/** A document whose one GET answers `response` and takes `request` as a JSON body. */
function api(request: object, response: object, extra: (d: Doc) => void = () => {}): Doc {
  return changed((d) => {
    delete d.paths['/users'];
    GET(d).requestBody = { content: { 'application/json': { schema: request } } };
    GET(d).responses = { 200: { content: { 'application/json': { schema: response } } } };
    extra(d);
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

describe('headers', () => {
  it('lists a response header added, and compares the schema of one kept', () => {
    const added = changed((d) => {
      POST(d).responses[201].headers['X-Rate'] = { schema: { type: 'integer' } };
    });
    expect(diffOpenApi(baseDocument(), added)).toEqual([
      expect.objectContaining({
        breaking: false,
        code: 'header-added',
        location: '#/paths/~1users/post/responses/201/headers/X-Rate',
        message: 'header added to response 201: X-Rate',
      }),
    ]);
    const retyped = changed((d) => {
      POST(d).responses[201].headers.Location.schema = { type: 'integer' };
    });
    expect(diffOpenApi(baseDocument(), retyped)).toEqual([
      expect.objectContaining({
        code: 'type-changed',
        location: '#/paths/~1users/post/responses/201/headers/Location/schema/type',
        message: 'type of header Location of response 201 changed: string → integer',
      }),
    ]);
  });
});

describe('$refs and pointers', () => {
  it('unescapes ~0 and ~1 in a $ref, and escapes them in the locations it gives', () => {
    const doc = (type: string) =>
      changed((d) => {
        S(d)['a/b~c'] = { type };
        GET(d).responses[200].content['application/json'].schema = {
          $ref: '#/components/schemas/a~1b~0c',
        };
      });
    expect(diffOpenApi(doc('string'), doc('integer'))).toEqual([
      expect.objectContaining({ location: '#/components/schemas/a~1b~0c/type' }),
    ]);
  });

  it('reads a cycle of $refs to $refs, or a $ref out of the document, as any schema', () => {
    const doc = (schema: object) =>
      changed((d) => {
        S(d).Loop = { $ref: '#/components/schemas/Loop' };
        GET(d).responses[200].content['application/json'].schema = schema;
      });
    const typed = doc({ type: 'string' });
    expect(lines(typed, doc({ $ref: '#/components/schemas/Loop' }))).toEqual([
      '! type-widened: type of response 200 widened: string → any',
    ]);
    expect(lines(typed, doc({ $ref: 'other.json#/components/schemas/User' }))).toEqual([
      '! type-widened: type of response 200 widened: string → any',
    ]);
  });

  it('reads an array where an object belongs as no object', () => {
    const doc = (content: unknown) =>
      changed((d) => {
        GET(d).responses[200].content = content;
      });
    expect(lines(doc([{ schema: {} }]), doc([]))).toEqual([]);
  });

  it('follows a $ref into a component of a changed document by its pointer, arrays included', () => {
    const doc = (type: string) =>
      changed((d) => {
        S(d).Pair = { type: 'array', prefixItems: [{ type: 'string' }, { type }] };
        GET(d).responses[200].content['application/json'].schema = {
          $ref: '#/components/schemas/Pair/prefixItems/1',
        };
      });
    expect(lines(doc('string'), doc('integer'))).toEqual([
      '! type-changed: type of response 200 changed: string → integer',
    ]);
  });
});

describe('operations and parameters', () => {
  it('says nothing of an operation that stays deprecated', () => {
    const deprecated = changed((d) => {
      GET(d).deprecated = true;
    });
    expect(diffOpenApi(deprecated, deprecated)).toEqual([]);
    expect(diffOpenApi(deprecated, baseDocument())).toEqual([]);
  });

  it('matches header parameters in any case, and query parameters by their exact name', () => {
    const param = (name: string, where: string) =>
      changed((d) => {
        GET(d).parameters[1] = { name, in: where, schema: { type: 'string' } };
      });
    expect(diffOpenApi(param('X-Tenant', 'header'), param('x-tenant', 'header'))).toEqual([]);
    expect(lines(param('Fields', 'query'), param('fields', 'query'))).toEqual([
      '- parameter-removed: query parameter Fields removed (now ignored)',
      '- parameter-added: optional query parameter fields added',
    ]);
  });

  it("compares the path item's own parameters, pointing into the path item", () => {
    const shared = (type: string) =>
      changed((d) => {
        d.paths['/users/{id}'].parameters = [{ name: 'x-tenant', in: 'header', schema: { type } }];
      });
    expect(diffOpenApi(shared('string'), shared('integer'))).toEqual([
      expect.objectContaining({
        location: '#/paths/~1users~1{id}/parameters/0/schema/type',
        message: 'type of header parameter x-tenant changed: string → integer',
      }),
    ]);
  });

  it('pairs path parameters by their place in the path', () => {
    const path = (template: string, names: [string, string], types: [string, string]) =>
      changed((d) => {
        delete d.paths['/users/{id}'];
        d.paths[template] = {
          get: {
            parameters: names.map((name, i) => ({
              name,
              in: 'path',
              required: true,
              schema: { type: types[i] },
            })),
            responses: { 204: { description: 'done' } },
          },
        };
      });
    const base = path('/a/{x}/b/{y}', ['x', 'y'], ['string', 'integer']);
    expect(diffOpenApi(base, path('/a/{p}/b/{q}', ['p', 'q'], ['string', 'integer']))).toEqual([]);
    expect(lines(base, path('/a/{x}/b/{y}', ['x', 'y'], ['string', 'number']))).toEqual([
      '- type-widened: type of path parameter y widened: integer → number',
    ]);
  });

  it('reads an error status folded into default as still covered, but not a success status', () => {
    const folded = changed((d) => {
      GET(d).responses = { 200: GET(d).responses[200], default: GET(d).responses[404] };
    });
    expect(lines(baseDocument(), folded)).toEqual([
      '- response-removed: response 404 removed (still covered by default)',
      '- response-removed: response 4XX removed (still covered by default)',
      '- response-added: response default added',
    ]);
    const success = changed((d) => {
      GET(d).responses = { default: GET(d).responses[200] };
    });
    expect(breakingChanges(baseDocument(), success).map((c) => c.message)).toEqual([
      'response 200 removed',
    ]);
  });

  it('finds every method of a path item', () => {
    const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
    const all = changed((d) => {
      d.paths['/all'] = Object.fromEntries(methods.map((m) => [m, { responses: {} }]));
    });
    expect(diffOpenApi(all, baseDocument()).map((c) => c.operation)).toEqual(
      methods.map((m) => `${m.toUpperCase()} /all`),
    );
  });

  it('reports a change once where two media types of one response share the schema', () => {
    const twice = (type: string) =>
      changed((d) => {
        S(d).Shared = { type };
        const ref = { schema: { $ref: '#/components/schemas/Shared' } };
        GET(d).responses[200].content = { 'application/json': ref, 'application/x+json': ref };
      });
    expect(lines(twice('string'), twice('integer'))).toEqual([
      '! type-changed: type of response 200 changed: string → integer',
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

  it('accepts nothing without two readable versions', () => {
    expect(removed(undefined, '2.0.0')).toBe(1);
    expect(removed('1.0.0', 3.1)).toBe(1);
    expect(removed('1.0.0', 'release 2.0')).toBe(1);
    expect(removed('1.0.0', '1.0.0')).toBe(1);
  });
});
