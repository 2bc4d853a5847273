import { describe, expect, it } from 'vitest';
import { addInferredLinks, inferLinks, pathParams } from '../../src/docs/links.js';
import type { OpenApiDocument } from '../../src/docs/types.js';

// Where inferred links come from in odd documents: deep and escaped fields, $refs, statuses
// that give nothing, producers that cannot give every path value.

const json = (schema: object, extra: object = {}) => ({
  description: 'd',
  content: { 'application/json': { schema } },
  ...extra,
});
const obj = (properties: object) => ({ type: 'object', properties });
const target = (operationId: string) => ({ get: { operationId, responses: {} } });

function document(paths: object, schemas: object = {}): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths,
    components: { schemas },
  } as unknown as OpenApiDocument;
}

const found = (doc: OpenApiDocument) =>
  inferLinks(doc).map(
    (l) => `${l.method} ${l.path} ${l.status} → ${l.name} ${JSON.stringify(l.link.parameters)}`,
  );

describe('where a link finds its value', () => {
  it('looks three levels down, escaping names in the pointer, not four', () => {
    const deep = obj({ 'a/b': obj({ 'c~d': obj({ e: obj({ id: { type: 'integer' } }) }) }) });
    expect(
      found(
        document({
          '/x': { post: { responses: { 201: json(obj({ w: deep })) } } },
          '/x/{id}': target('getX'),
        }),
      ),
    ).toEqual([]);
    expect(
      found(
        document({ '/x': { post: { responses: { 201: json(deep) } } }, '/x/{id}': target('getX') }),
      ),
    ).toEqual(['post /x 201 → getX {"id":"$response.body#/a~1b/c~0d/e/id"}']);
  });

  it('takes a field of a scalar type, no type or a $ref, and looks inside one of another type', () => {
    const paths = (id: object) => ({
      '/x': { post: { responses: { 201: json(obj({ id, y: obj({ id: { type: 'string' } }) })) } } },
      '/x/{id}': target('getX'),
    });
    expect(found(document(paths({ type: 'number' })))).toEqual([
      'post /x 201 → getX {"id":"$response.body#/id"}',
    ]);
    expect(found(document(paths({}))).length).toBe(1);
    expect(found(document(paths({ $ref: '#/components/schemas/Id' }), { Id: {} })).length).toBe(1);
    expect(found(document(paths({ type: 'boolean' })))).toEqual([
      'post /x 201 → getX {"id":"$response.body#/y/id"}',
    ]);
  });

  it('follows $refs to components, names percent-encoded, and into array items', () => {
    const doc = document(
      {
        '/x': {
          get: { responses: { 200: json({ $ref: '#/components/schemas/Many%20X' }) } },
        },
        '/x/{xID}': target('getX'),
      },
      {
        'Many X': { type: 'array', items: { $ref: '#/components/schemas/X' } },
        X: obj({ id: { type: 'string' } }),
      },
    );
    expect(found(doc)).toEqual(['get /x 200 → getX {"xID":"$response.body#/0/id"}']);
  });

  it('takes Location only from a 201 of a POST, and no value from a status that is no 2xx', () => {
    const location = { headers: { Location: { schema: { type: 'string' } } } };
    const doc = document({
      '/x': {
        post: { responses: { 200: { description: 'd', ...location } } },
        get: { responses: { '4XX': json(obj({ id: {} })), '2XX': json(obj({ id: {} })) } },
      },
      '/x/{id}': {
        put: { operationId: 'putX', responses: { 201: { description: 'd', ...location } } },
        ...target('getX'),
      },
    });
    expect(found(doc)).toEqual([]);
  });
});

describe('which operations produce a value', () => {
  it('links an update of an item to the other operations on it, never to itself', () => {
    const doc = document({
      '/x/{id}': {
        put: { operationId: 'putX', responses: { 200: json(obj({ id: {} })) } },
        ...target('getX'),
      },
    });
    expect(found(doc)).toEqual(['put /x/{id} 200 → getX {"id":"$response.body#/id"}']);
  });

  it('gives the other path values from its own request, and skips a producer that has none', () => {
    const doc = document({
      '/o': {
        get: { responses: { 200: json({ type: 'array', items: obj({ org: {}, id: {} }) }) } },
      },
      '/o/{org}/x': {
        post: { operationId: 'addX', responses: { 201: json(obj({ id: {} })) } },
      },
      '/o/{org}/x/{id}': target('getX'),
    });
    // The list gives org and id, but not from one path: only the create gives both.
    expect(found(doc)).toEqual([
      'get /o 200 → addX {"org":"$response.body#/0/org"}',
      'post /o/{org}/x 201 → getX {"id":"$response.body#/id","org":"$request.path.org"}',
    ]);
  });
});

describe('addInferredLinks', () => {
  it('adds the links to their responses, keeping one of the same name the document declares', () => {
    const declared = { operationId: 'getX', parameters: { id: '$response.body#/key' } };
    const doc = document({
      '/x': {
        post: { responses: { 201: json(obj({ id: {} }), { links: { getX: declared } }) } },
        get: { responses: { 200: json({ type: 'array', items: obj({ id: {} }) }) } },
      },
      '/x/{id}': target('getX'),
    });
    addInferredLinks(doc);
    const responses = doc.paths['/x'] as Record<string, { responses: Record<string, object> }>;
    expect(responses.post?.responses['201']).toMatchObject({ links: { getX: declared } });
    expect(responses.get?.responses['200']).toMatchObject({
      links: { getX: { operationId: 'getX', parameters: { id: '$response.body#/0/id' } } },
    });
  });
});

describe('pathParams', () => {
  it('lists whole-segment parameters with their segment index', () => {
    expect(pathParams('/a/{x}/b/{y}')).toEqual([
      { name: 'x', at: 2 },
      { name: 'y', at: 4 },
    ]);
    expect(pathParams('/a/{x}.json/{}')).toEqual([]);
  });
});
