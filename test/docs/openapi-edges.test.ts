import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeMiddleware } from '../../src/extend/index.js';
import { App, get, head, type Middleware, post } from '../../src/index.js';

// The document at its edges: a bare app's document has only what was given, tags are listed
// once, HEAD operations and ids follow explicit routes, and middleware schemes merge by content.

const pass: Middleware = (_c, next) => next();

function app(docs: Record<string, unknown> = {}) {
  return new App({ serviceName: 'edges', env: 'development', docs } as never);
}

describe('the OpenAPI document at its edges', () => {
  it('has no info, servers, tags, security or schemes that were not given', async () => {
    const a = app();
    a.addRoutes(get('/x', () => 'x'));
    const doc = await a.openapi();
    expect(doc.info).toStrictEqual({ title: 'edges', version: '1.0.0' });
    expect(Object.keys(doc).sort()).toEqual(['components', 'info', 'openapi', 'paths', 'tags']);
    expect(doc.tags).toEqual([{ name: 'health' }]);
    expect(Object.keys(doc.components).sort()).toEqual(['schemas']);
    expect(doc.paths['/x']?.get?.security).toBeUndefined();
  });

  it('lists a tag once, configured ones first, and numbers an automatic id already taken', async () => {
    const a = app({ tags: [{ name: 'b', description: 'B' }] });
    a.addRoutes(
      get('/one', { tags: ['c', 'b'] }, () => 1),
      get('/two', { tags: ['c', 'a'] }, () => 2),
      get('/a-b', () => 3),
      get('/a/b', () => 4),
      get('/a_b', () => 5),
    );
    const doc = await a.openapi();
    expect(doc.tags).toEqual([
      { name: 'b', description: 'B' },
      { name: 'c' },
      { name: 'a' },
      { name: 'health' },
    ]);
    expect(['/a-b', '/a/b', '/a_b'].map((p) => doc.paths[p]?.get?.operationId)).toEqual([
      'getAB',
      'getAB2',
      'getAB3',
    ]);
    expect(['/a-b', '/a/b', '/a_b'].map((p) => doc.paths[p]?.head?.operationId)).toEqual([
      'headAB',
      'headAB2',
      'headAB3',
    ]);
  });

  it('derives HEAD from GET unless a HEAD route has the same path', async () => {
    const a = app();
    a.addRoutes(
      head('/files/:name', () => ''),
      get('/files/:name', { operationId: 'readFile' }, () => 'f'),
      get('/pics/:id', { operationId: 'readPic' }, () => 'p'),
    );
    const doc = await a.openapi();
    expect(doc.paths['/files/{name}']?.head?.operationId).toBe('headFilesByName');
    expect(doc.paths['/pics/{id}']?.head?.operationId).toBe('readPicHead');
  });

  it('merges a scheme declared twice with the same content in any key order, and names both when they differ', async () => {
    const bearer = describeMiddleware(
      async function bearer(_c, next) {
        return next();
      },
      {
        securitySchemes: { jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        security: [{ jwt: [] }],
      },
    );
    const a = app({
      securitySchemes: { jwt: { bearerFormat: 'JWT', scheme: 'bearer', type: 'http' } },
    });
    a.addRoutes(get('/me', { middleware: [bearer] }, () => 'me'));
    const doc = await a.openapi();
    expect(doc.components.securitySchemes).toEqual({
      jwt: { bearerFormat: 'JWT', scheme: 'bearer', type: 'http' },
    });
    expect(doc.paths['/me']?.get?.security).toEqual([{ jwt: [] }]);
    // A route without a requirement says so when the document has schemes.
    const open = app({ securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'k' } } });
    open.addRoutes(get('/open', () => 'o'));
    expect((await open.openapi()).paths['/open']?.get?.security).toEqual([]);

    const other = describeMiddleware(pass, {
      securitySchemes: { jwt: { type: 'http', scheme: 'basic' } },
    });
    const clash = app({ securitySchemes: { jwt: { type: 'http', scheme: 'bearer' } } });
    clash.addRoutes(get('/x', { middleware: [other] }, () => 'x'));
    await expect(clash.openapi()).rejects.toThrow(
      'the security scheme "jwt" is declared differently by docs.securitySchemes (http bearer) and by middleware "pass" (http basic); give one of them another name: the securityScheme option of a guard',
    );
    const anonymous = describeMiddleware((_c, next) => next(), {
      securitySchemes: { jwt: { type: 'http', scheme: 'digest', nested: [1, { b: 2, a: 1 }] } },
    } as never);
    const twice = app();
    const same = describeMiddleware(
      async function same(_c, next) {
        return next();
      },
      { securitySchemes: { jwt: { scheme: 'basic', type: 'http' } } },
    );
    twice.addRoutes(
      get('/a', { middleware: [other] }, () => 'a'),
      get('/s', { middleware: [same] }, () => 's'),
      post('/b', { middleware: [anonymous], body: z.object({}) }, () => 'b'),
    );
    await expect(twice.openapi()).rejects.toThrow(
      'declared differently by middleware "pass" (http basic) and by middleware (anonymous) (http digest)',
    );
  });
});
