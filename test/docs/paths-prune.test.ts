import { describe, expect, it } from 'vitest';
import { defaultOperationId } from '../../src/docs/operation-id.js';
import { pathVariants } from '../../src/docs/paths.js';
import { pruneComponents } from '../../src/docs/prune.js';

// Route paths as OpenAPI paths and ids, and which components the document keeps.

describe('pathVariants', () => {
  it('turns parameters, patterns, a literal colon, the wildcard and an optional last parameter into paths', () => {
    expect(pathVariants('/a::b/:id(^\\d+)/*')).toEqual([
      {
        template: '/a:b/{id}/{wildcard}',
        params: [
          { name: 'id', key: 'id', pattern: '^\\d+' },
          { name: 'wildcard', key: '*' },
        ],
      },
    ]);
    expect(pathVariants('/files/:dir/:name?')).toEqual([
      {
        template: '/files/{dir}/{name}',
        params: [
          { name: 'dir', key: 'dir' },
          { name: 'name', key: 'name' },
        ],
      },
      { template: '/files/{dir}', params: [{ name: 'dir', key: 'dir' }], without: 'name' },
    ]);
    expect(pathVariants('/:lang?')).toEqual([
      { template: '/{lang}', params: [{ name: 'lang', key: 'lang' }] },
      { template: '/', params: [], without: 'lang' },
    ]);
    expect(pathVariants('/plain')).toEqual([{ template: '/plain', params: [] }]);
  });
});

describe('defaultOperationId', () => {
  it('joins method and words, parameters as By<Name>, the wildcard as Wildcard', () => {
    expect(defaultOperationId('GET', '/users/:id')).toBe('getUsersById');
    expect(defaultOperationId('POST', '/a--b__c/:x(^\\d+)?')).toBe('postABCByX');
    expect(defaultOperationId('GET', '/files/*')).toBe('getFilesWildcard');
    expect(defaultOperationId('DELETE', '/')).toBe('deleteRoot');
  });
});

describe('pruneComponents', () => {
  it('keeps what the paths reach, through refs in arrays and other components, in order', () => {
    const schemas = {
      A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
      B: { anyOf: [{ $ref: '#/components/schemas/C%20D/properties/x' }, { type: 'null' }] },
      'C D': { type: 'object' },
      Unused: { $ref: '#/components/schemas/A' },
      Other: { type: 'string' },
    };
    const paths = {
      '/x': {
        get: { responses: { 200: { content: [{ schema: { $ref: '#/components/schemas/A' } }] } } },
      },
      // Not a reference: a property named $ref, an external ref, a ref to a missing schema.
      '/y': { properties: { $ref: { type: 'string' } }, e: { $ref: 'https://x.io/schemas/Other' } },
      '/z': { $ref: '#/components/schemas/Missing' },
    };
    expect(Object.keys(pruneComponents(schemas, paths))).toEqual(['A', 'B', 'C D']);
    const inherited = Object.create({ $ref: '#/components/schemas/Other' }) as object;
    expect(pruneComponents(schemas, { inherited, nil: null })).toEqual({});
  });
});
