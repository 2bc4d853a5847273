import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/extend/index.js';
import { everyFeatureApp } from './fixtures/every-feature.js';
import { openApiProblems } from './valid-openapi.js';

let doc: OpenApiDocument;
beforeAll(async () => {
  doc = await everyFeatureApp().openapi();
});

const op = (path: string, method: string) => doc.paths[path]?.[method];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

describe('the OpenAPI document', () => {
  it('passes an OpenAPI 3.1 validator, every $ref resolving', async () => {
    expect(await openApiProblems(doc)).toEqual([]);
  });

  it('fails that check when a reference is broken or a required field is missing', async () => {
    const broken = structuredClone(doc);
    delete broken.components.schemas.Address;
    expect(await openApiProblems(broken)).toEqual(['unresolved $ref #/components/schemas/Address']);
    const incomplete = structuredClone(doc) as { info: { title?: string } };
    delete incomplete.info.title;
    expect((await openApiProblems(incomplete)).join('\n')).toMatch(/title/);
  });

  it('takes info and servers from DocsConfig', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({
      title: 'Every feature',
      version: '2.1.0',
      description: 'Uses every schema feature.',
      contact: { name: 'Team', email: 'team@example.com' },
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    });
    expect(doc.servers).toEqual([
      { url: 'https://api.example.com', description: 'Production' },
      { url: '/' },
    ]);
  });

  it('lists the configured tags first, then every other tag a route uses', () => {
    expect(doc.tags).toEqual([
      { name: 'pets', description: 'Pets and their owners' },
      { name: 'writes' },
      { name: 'health' },
    ]);
  });

  it('has an operation for every route but the hidden ones, groups, modules and health included', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual(
      [
        'GET /pets',
        'POST /pets',
        'GET /pets/{petId}',
        'PUT /pets/{petId}/note',
        'GET /catalog/categories',
        'GET /catalog/trees',
        'GET /catalog/events',
        'POST /catalog/search',
        'GET /health',
        'GET /health/live',
        'HEAD /pets',
        'HEAD /pets/{petId}',
        'HEAD /catalog/categories',
        'HEAD /catalog/trees',
        'HEAD /catalog/events',
        'HEAD /health',
        'HEAD /health/live',
        'GET /health/ready',
        'HEAD /health/ready',
      ].sort(),
    );
  });

  it('derives operationIds from method and path unless the route sets one', () => {
    expect(op('/pets/{petId}', 'get')?.operationId).toBe('getPetsByPetId');
    expect(op('/catalog/categories', 'get')?.operationId).toBe('getCatalogCategories');
    expect(op('/pets/{petId}/note', 'put')?.operationId).toBe('setPetNote');
    expect(op('/health', 'get')?.operationId).toBe('getHealth');
  });

  it('copies summary, tags and deprecated', () => {
    expect(op('/pets', 'post')).toMatchObject({ summary: 'Add a pet', tags: ['pets', 'writes'] });
    expect(op('/pets/{petId}/note', 'put')?.deprecated).toBe(true);
    expect(op('/pets', 'get')?.deprecated).toBeUndefined();
  });

  it('makes path, query and header parameters from their schemas', () => {
    expect(op('/pets/{petId}', 'get')?.parameters).toEqual([
      {
        name: 'petId',
        in: 'path',
        required: true,
        description: 'The pet id.',
        schema: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
      },
    ]);
    expect(op('/pets', 'get')?.parameters).toEqual([
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Page size.',
        schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
      {
        name: 'kind',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['cat', 'dog', 'bird'] },
      },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      {
        name: 'x-tenant',
        in: 'header',
        required: true,
        description: 'The tenant.',
        schema: { type: 'string' },
      },
      { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });

  it('documents a path parameter the route declares no schema for as a string', () => {
    expect(op('/pets/{petId}/note', 'put')?.parameters).toEqual([
      { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('makes the request body required unless its schema accepts undefined', () => {
    expect(op('/pets', 'post')?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: ref('PetInput') } },
    });
    expect(op('/pets/{petId}/note', 'put')?.requestBody?.required).toBe(false);
  });

  it('describes each declared response with its schema, and 204 with no body', () => {
    const get = op('/pets/{petId}', 'get')?.responses;
    expect(get?.['200']).toEqual({
      description: 'OK',
      content: { 'application/json': { schema: ref('Pet') } },
    });
    expect(get?.['404']?.content?.['application/json']?.schema).toMatchObject({
      properties: { missing: { const: true } },
    });
    expect(op('/pets/{petId}/note', 'put')?.responses['204']).toEqual({
      description: 'No Content',
    });
  });

  it('adds the problem responses a route can produce: 422 when it validates, its declared errors, 500', () => {
    expect(op('/pets/{petId}', 'get')?.responses['410']).toEqual(problem('Gone'));
    expect(op('/pets', 'get')?.responses['422']).toEqual({
      description: 'Unprocessable Entity',
      content: {
        'application/problem+json': {
          schema: {
            allOf: [
              ref('Problem'),
              {
                type: 'object',
                properties: { code: { type: 'string', enum: ['VALIDATION_FAILED'] } },
              },
            ],
          },
        },
      },
    });
    expect(op('/pets', 'get')?.responses['500']).toEqual(problem('Internal Server Error'));
    expect(Object.keys(op('/catalog/trees', 'get')?.responses ?? {})).toEqual([
      '200',
      '500',
      '4XX',
      '5XX',
    ]);
  });

  it('shares one Problem schema with every field of a problem body', () => {
    expect(doc.components.schemas.Problem).toMatchObject({
      type: 'object',
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string' },
        errors: {
          type: 'array',
          items: { properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
      required: ['type', 'title', 'status', 'detail', 'code'],
    });
  });

  it('puts a schema with an id into components once and refers to it everywhere', () => {
    expect(op('/pets', 'get')?.responses['200']?.content?.['application/json']?.schema).toEqual({
      type: 'array',
      items: ref('Pet'),
    });
    expect(doc.components.schemas.Pet?.properties).toMatchObject({ address: ref('Address') });
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('names the input side of an id <id>Input when it differs from the output side', () => {
    const pet = doc.components.schemas.Pet as { required: string[] };
    const input = doc.components.schemas.PetInput as { required: string[]; properties: object };
    expect(pet.required).toContain('vaccinated');
    expect(input.required).not.toContain('vaccinated');
    expect(input.properties).toMatchObject({ address: ref('AddressInput') });
  });

  it('expresses recursive schemas through a component that refers to itself', () => {
    expect(doc.components.schemas.Category).toMatchObject({
      properties: { children: { type: 'array', items: ref('Category') } },
    });
    const tree = op('/catalog/trees', 'get')?.responses['200']?.content?.['application/json'];
    expect(tree?.schema).toEqual(ref('GetCatalogTreesResponse200'));
    expect(doc.components.schemas.GetCatalogTreesResponse200).toMatchObject({
      properties: { kids: { items: ref('GetCatalogTreesResponse200') } },
    });
  });

  it('expresses unions, discriminated unions, enums, nullables, dates, records and arrays', () => {
    const pet = doc.components.schemas.Pet as { properties: Record<string, unknown> };
    expect(pet.properties.kind).toEqual({ type: 'string', enum: ['cat', 'dog', 'bird'] });
    expect(pet.properties.nickname).toEqual({ type: ['string', 'null'] });
    expect(pet.properties.bornAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(pet.properties.scores).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'number' },
    });
    expect(pet.properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(doc.components.schemas.Event).toMatchObject({
      oneOf: [
        { properties: { type: { const: 'created' } } },
        { properties: { type: { const: 'deleted' } } },
      ],
    });
    const search = op('/catalog/search', 'post')?.requestBody?.content['application/json'];
    expect(search?.schema).toMatchObject({ anyOf: [{ type: 'object' }, { type: 'object' }] });
  });

  it('declares the security schemes and copies each route’s requirements', () => {
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual([
      'bearer',
      'apiKey',
      'oauth',
    ]);
    expect(op('/pets', 'post')?.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(op('/pets/{petId}/note', 'put')?.security).toEqual([{ oauth: ['pets:write'] }]);
    expect(op('/pets', 'get')?.security).toEqual([]);
  });
});
