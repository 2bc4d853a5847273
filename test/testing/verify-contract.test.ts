import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { OpenApiDocument } from '../../src/extend/index.js';
import { get, post } from '../../src/index.js';
import { verifyContract } from '../../src/testing/index.js';
import { testApp } from '../app/helpers.js';
import { exampleApp } from '../support/example-app.js';

describe('verifyContract', () => {
  afterEach(() => {
    vi.doUnmock('fast-check');
    vi.resetModules();
  });

  it('finds no disagreement in the example service, with and without credentials', async () => {
    const app = await exampleApp({ host: '127.0.0.1', port: 0 });
    expect(await verifyContract(app)).toEqual([]);
    expect(await verifyContract(app, { headers: { authorization: 'Bearer demo-token' } })).toEqual(
      [],
    );
  });

  it('reports a media type, a body and a status the document does not declare', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/html', (c) => c.reply.type('text/html').send('<p>hi</p>')),
      get(
        '/wrong',
        { responses: { 200: z.object({ a: z.string() }) } },
        (c) => c.reply.type('application/json').send('{"a":1}') as never,
      ),
      get('/moved', (c) => c.reply.redirect('/html')),
    );
    const found = await verifyContract(app, { runs: 1 });
    const byOp = Object.fromEntries(found.map((v) => [v.operation, v.problems[0]]));
    expect(byOp['GET /html']).toBe(
      'media type text/html is not declared for status 200 (declared: application/json)',
    );
    expect(byOp['GET /wrong']).toMatch(
      /^the body does not match the schema of status 200: \/a must be string/,
    );
    expect(byOp['GET /moved']).toBe('status 302 is not declared');
  });

  it('sends invalid requests and reports one a route answers with a 2xx', async () => {
    const { app } = testApp();
    app.addRoutes(post('/echo', () => ({ ok: true })));
    // A document that promises more checking than the route does.
    const doc = (await app.openapi()) as OpenApiDocument;
    const strict = structuredClone(doc);
    strict.paths['/echo']!.post!.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        },
      },
    };
    const found = await verifyContract(
      { openapi: async () => strict, inject: (r) => app.inject(r) },
      { runs: 2 },
    );
    expect(found.map((v) => v.invalid)).toEqual([
      'the body lacks the required n',
      'the body has the wrong JSON type',
    ]);
    expect(found[0]?.problems).toEqual([
      'an invalid request (the body lacks the required n) was answered 200',
    ]);
  });

  it('derives values that satisfy the schemas: a valid request reaches the handler', async () => {
    const { app } = testApp();
    const seen: unknown[] = [];
    app.addRoutes(
      post(
        '/items/:id',
        {
          params: z.object({ id: z.coerce.number().int().min(1) }),
          query: z.object({ page: z.coerce.number().int().min(1).max(9) }),
          body: z.object({ name: z.string().min(2).max(5), at: z.iso.datetime() }),
          responses: { 200: z.object({ ok: z.boolean() }) },
        },
        (c) => {
          seen.push(c.body);
          return { ok: true };
        },
      ),
    );
    expect(await verifyContract(app, { runs: 5 })).toEqual([]);
    expect(seen).toHaveLength(5);
  });

  it('names the install command when a library it needs is missing', async () => {
    vi.doMock('fast-check', () => {
      throw new Error('Cannot find package fast-check');
    });
    const fresh = await import('../../src/testing/index.js');
    const { app } = testApp();
    await expect(fresh.verifyContract(app)).rejects.toThrow(
      /keelson\/testing needs fast-check, which is not installed .*; run: npm install --save-dev fast-check/,
    );
  });
});
