import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inferLinks } from '../../src/docs/links.js';
import type { OpenApiDocument } from '../../src/docs/types.js';
import { del, get, patch, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

// The links a document gets from its paths and response schemas: what creates or lists the
// items of a collection gives the path values of the operations on one item.

describe('inferred links', () => {
  it('from a create, an update and a list to the operations on one item, nested ones too', async () => {
    const { app } = testApp();
    const Article = z.object({ article: z.object({ slug: z.string(), title: z.string() }) });
    const Comment = z.object({ comment: z.object({ id: z.number(), body: z.string() }) });
    app.addRoutes(
      post(
        '/articles',
        { body: z.object({ title: z.string() }), responses: { 201: Article } },
        () => ({
          article: { slug: 's', title: 't' },
        }),
      ),
      get(
        '/articles',
        { responses: { 200: z.object({ articles: z.array(Article.shape.article) }) } },
        () => ({
          articles: [],
        }),
      ),
      get('/articles/:slug', { responses: { 200: Article } }, () => ({
        article: { slug: 's', title: 't' },
      })),
      patch('/articles/:slug', { responses: { 200: Article } }, () => ({
        article: { slug: 's', title: 't' },
      })),
      post('/articles/:slug/comments', { responses: { 201: Comment } }, () => ({
        comment: { id: 1, body: 'b' },
      })),
      del('/articles/:slug/comments/:id', (c) => c.noContent()),
    );
    const doc = await app.openapi();
    const links = (path: string, method: string, status: string) =>
      doc.paths[path]?.[method]?.responses[status]?.links;
    expect(links('/articles', 'post', '201')?.getArticlesBySlug).toEqual({
      operationId: 'getArticlesBySlug',
      parameters: { slug: '$response.body#/article/slug' },
    });
    expect(Object.keys(links('/articles', 'post', '201') ?? {}).sort()).toEqual([
      'getArticlesBySlug',
      'headArticlesBySlug',
      'patchArticlesBySlug',
      'postArticlesBySlugComments',
    ]);
    expect(links('/articles', 'get', '200')?.getArticlesBySlug?.parameters).toEqual({
      slug: '$response.body#/articles/0/slug',
    });
    // An update that may rename the item says so: its answer gives the new slug.
    expect(links('/articles/{slug}', 'patch', '200')?.getArticlesBySlug?.parameters).toEqual({
      slug: '$response.body#/article/slug',
    });
    expect(links('/articles/{slug}/comments', 'post', '201')).toEqual({
      deleteArticlesBySlugCommentsById: {
        operationId: 'deleteArticlesBySlugCommentsById',
        parameters: { id: '$response.body#/comment/id', slug: '$request.path.slug' },
      },
    });
    // A list gives no value for an item whose schema lacks the name; a read links nowhere.
    expect(links('/articles/{slug}', 'get', '200')).toBeUndefined();
  });

  it('takes an id for `userId`, the Location of a 201 without one, and keeps a declared link', () => {
    const json = (schema: object) => ({ content: { 'application/json': { schema } } });
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/users': {
          post: {
            operationId: 'addUser',
            responses: {
              '201': {
                description: 'Created',
                ...json({ type: 'object', properties: { id: { type: 'integer' } } }),
              },
            },
          },
        },
        '/users/{userId}': { get: { operationId: 'getUser', responses: {} } },
        '/files': {
          post: {
            operationId: 'addFile',
            responses: {
              '201': {
                description: 'Created',
                headers: { Location: { schema: { type: 'string' } } },
              },
            },
          },
        },
        '/files/{name}': { get: { operationId: 'getFile', responses: {} } },
      },
      components: { schemas: {} },
    } as unknown as OpenApiDocument;
    expect(inferLinks(doc).map((l) => [l.path, l.name, l.link.parameters])).toEqual([
      ['/users', 'getUser', { userId: '$response.body#/id' }],
      ['/files', 'getFile', { name: '$response.header.Location' }],
    ]);
  });
});
