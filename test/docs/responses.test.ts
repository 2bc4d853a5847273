import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeMiddleware } from '../../src/extend/index.js';
import { App, get } from '../../src/index.js';

// The responses of an operation, whole: only the keys that have something to say, defaults for
// a route that declares no success, and what middleware adds.

const problem = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};

describe('responses', () => {
  it('are exactly the declared, defaulted and framework ones, with no empty keys', async () => {
    const limit = describeMiddleware(
      async function limit(_c, next) {
        return next();
      },
      {
        responses: {
          200: { description: 'never used: the route declares 200' },
          429: { description: 'Slow down', headers: { 'X-Limit': {} } },
          404: { schema: z.object({ gone: z.boolean() }) },
        },
      },
    );
    const app = new App({ serviceName: 'r', env: 'development' });
    app.addRoutes(
      get('/text', { media: { responses: 'text/plain' } }, () => 'hi'),
      get('/json', () => ({})),
      get(
        '/one',
        {
          middleware: [limit],
          responses: { 200: z.string() },
          examples: { responses: { 200: 'x' } },
        },
        () => 'x',
      ),
    );
    const doc = await app.openapi();
    expect(doc.paths['/text']?.get?.responses).toStrictEqual({
      '200': { description: 'OK', content: { 'text/plain': {} } },
      '204': { description: 'No Content' },
      '500': { description: 'Internal Server Error', content: problem },
      '4XX': { description: 'Any other client error.', content: problem },
      '5XX': { description: 'Any other server error.', content: problem },
    });
    expect(doc.paths['/text']?.head?.responses['200']).toStrictEqual({ description: 'OK' });
    const one = doc.paths['/one']?.get?.responses;
    expect(one?.['200']).toStrictEqual({
      description: 'OK',
      content: { 'application/json': { schema: { type: 'string' }, example: 'x' } },
    });
    expect(one?.['429']).toStrictEqual({
      description: 'Slow down',
      headers: {
        'X-Limit': { schema: { type: 'string' } },
        'Retry-After': {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'string' },
        },
      },
      content: problem,
    });
    expect(one?.['404']).toMatchObject({
      description: 'Not Found',
      content: { 'application/json': { schema: { type: 'object' } } },
    });
    expect(doc.paths['/one']?.head?.responses['429']).toStrictEqual({
      description: 'Slow down',
      headers: one?.['429']?.headers,
    });
    expect(doc.paths['/one']?.head?.responses['404']).toStrictEqual({ description: 'Not Found' });
    expect(doc.paths['/json']?.get?.responses['200']).toStrictEqual({
      description: 'OK',
      content: { 'application/json': { schema: {} } },
    });
    expect(Object.keys(one ?? {})).toEqual(['200', '404', '429', '500', '4XX', '5XX']);
  });
});
