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

describe('several media types for one status', () => {
  it('documents each media type a download may have, for every success or by status', async () => {
    const a = app();
    a.addRoutes(
      get('/files/:id', { media: { responses: ['image/png', 'application/pdf'] } }, () => 'x'),
      get(
        '/reports/:id',
        {
          media: { responses: { 200: ['text/csv', 'application/json'], 206: 'text/csv' } },
          responses: { 200: z.string(), 206: z.string() },
        },
        () => 'x',
      ),
    );
    const doc = await a.openapi();
    const files = doc.paths['/files/{id}']?.get?.responses;
    expect(files?.['200']?.content).toStrictEqual({ 'image/png': {}, 'application/pdf': {} });
    expect(files?.['500']?.content).toStrictEqual(problem);
    expect(doc.paths['/files/{id}']?.head?.responses['200']).toStrictEqual({ description: 'OK' });
    const reports = doc.paths['/reports/{id}']?.get?.responses;
    expect(reports?.['200']?.content).toStrictEqual({
      'text/csv': { schema: { type: 'string' } },
      'application/json': { schema: { type: 'string' } },
    });
    expect(reports?.['206']?.content).toStrictEqual({ 'text/csv': { schema: { type: 'string' } } });
  });

  it('documents JSON for a status the by-status media types leave out', async () => {
    const a = app();
    a.addRoutes(
      get(
        '/r',
        {
          media: { responses: { 206: 'text/csv' } },
          responses: { 200: z.string(), 206: z.string() },
        },
        () => 'x',
      ),
    );
    const r = (await a.openapi()).paths['/r']?.get?.responses;
    expect(Object.keys(r?.['200']?.content ?? {})).toEqual(['application/json']);
  });

  it('refuses an empty list or a media type that is not a string, naming the route', async () => {
    const empty = app();
    empty.addRoutes(get('/e', { media: { responses: [] } }, () => 'x'));
    await expect(empty.openapi()).rejects.toThrow(
      'route GET /e (app): media.responses must be a media type, a non-empty list of them, or either by status',
    );
    const bad = app();
    bad.addRoutes(get('/b', { media: { responses: { 200: [7] } } } as never, () => 'x'));
    await expect(bad.openapi()).rejects.toThrow('route GET /b (app): media.responses');
  });
});
