// The proof that the document is the server: a battery of valid and invalid requests derived
// from the kitchen sink's document, every answer checked against it. Zero violations.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, notFound, post } from '../../src/index.js';
import { verifyContract } from '../../src/testing/index.js';
import { testApp } from '../app/helpers.js';
import { API_KEY, kitchenSink } from './kitchen-sink.js';

describe('the kitchen-sink service answers what its document says', () => {
  it('to a client without credentials', async () => {
    expect(await verifyContract(kitchenSink(), { runs: 15 })).toEqual([]);
  });

  it('to a client with credentials, so guarded routes answer more than 401', async () => {
    const app = kitchenSink();
    expect(
      await verifyContract(app, { runs: 15, seed: 7, headers: { 'x-kitchen-key': API_KEY } }),
    ).toEqual([]);
  });

  it('covers every operation of the document, HEAD and both paths of an optional parameter too', async () => {
    const doc = await kitchenSink().openapi();
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        'GET /files/{name}',
        'GET /files',
        'HEAD /files',
        'GET /static/{wildcard}',
        'GET /orders/{id}',
        'HEAD /ping',
        'POST /notes',
        'PATCH /notes/{id}',
        'DELETE /notes/{id}',
      ]),
    );
  });
});

describe('a service that reshapes its error answers', () => {
  it('documents the shape it sends, and answers what it documents', async () => {
    const { app } = testApp({
      errors: {
        contentType: 'application/json',
        body: (p) => ({
          errors: { body: p.errors?.map((e) => `${e.path} ${e.message}`) ?? [p.detail] },
        }),
        schema: z.object({ errors: z.object({ body: z.array(z.string()) }) }),
      },
    });
    app.addRoutes(
      post('/things', { body: z.object({ n: z.number() }), summary: 'Add' }, (c) => c.body),
      get('/things/:id', { summary: 'Missing' }, () => {
        throw notFound('no thing');
      }),
    );
    const doc = await app.openapi();
    expect(Object.keys(doc.paths['/things']?.post?.responses['422']?.content ?? {})).toEqual([
      'application/json',
    ]);
    expect(doc.components.schemas.Problem).toBeUndefined();
    expect(await verifyContract(app)).toEqual([]);
  });
});
