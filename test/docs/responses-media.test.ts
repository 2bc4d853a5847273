import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get } from '../../src/index.js';

// Media types of responses: a route's own type is for its successes; error answers keep theirs.

const problem = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};

function app(): App {
  return new App({ serviceName: 'm', env: 'development' });
}

describe('the media types of responses', () => {
  it('documents a text/csv route’s error responses as JSON and problem+json, not text/csv', async () => {
    const a = app();
    a.addRoutes(
      get(
        '/report',
        {
          media: { responses: 'text/csv' },
          responses: { 200: z.string(), 400: z.object({ why: z.string() }) },
          errors: [404],
        },
        () => 'a,b\n',
      ),
    );
    const responses = (await a.openapi()).paths['/report']?.get?.responses;
    expect(responses?.['200']?.content).toStrictEqual({
      'text/csv': { schema: { type: 'string' } },
    });
    expect(Object.keys(responses?.['400']?.content ?? {})).toEqual(['application/json']);
    expect(responses?.['404']?.content).toStrictEqual(problem);
    expect(responses?.['4XX']?.content).toStrictEqual(problem);
  });

  it('keeps the default success of a route that declares only error responses', async () => {
    const a = app();
    a.addRoutes(
      get('/only-400', { responses: { 400: z.object({ why: z.string() }) } }, () => ({})),
      get('/only-404', { responses: { 404: z.object({ why: z.string() }) } }, () => ({})),
    );
    const doc = await a.openapi();
    for (const path of ['/only-400', '/only-404']) {
      const responses = doc.paths[path]?.get?.responses;
      expect(responses?.['200'], path).toStrictEqual({
        description: 'OK',
        content: { 'application/json': { schema: {} } },
      });
      expect(responses?.['204'], path).toStrictEqual({ description: 'No Content' });
    }
  });
});
