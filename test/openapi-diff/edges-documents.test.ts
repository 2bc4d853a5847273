import { describe, expect, it } from 'vitest';
import { breakingChanges, diffOpenApi } from '../../src/openapi-diff/index.js';
import { baseDocument, changed, type Doc } from './documents.js';

const S = (doc: Doc) => doc.components.schemas;
const GET = (doc: Doc) => doc.paths['/users/{id}'].get;
const POST = (doc: Doc) => doc.paths['/users'].post;
const lines = (base: Doc, current: Doc) =>
  diffOpenApi(base, current).map((c) => `${c.breaking ? '!' : '-'} ${c.code}: ${c.message}`);

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

  it('lists a parameter made optional, an optional body added and a body made required', () => {
    const optional = changed((d) => {
      GET(d).parameters[0].required = false;
      GET(d).requestBody = { content: {} };
      POST(d).requestBody.required = false;
    });
    expect(lines(baseDocument(), optional)).toEqual([
      '- body-optional: request body made optional',
      '- parameter-optional: path parameter id made optional',
      '- body-added: optional request body added',
    ]);
    expect(lines(optional, baseDocument())).toContain(
      '! body-required: request body made required',
    );
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
