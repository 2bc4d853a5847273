/**
 * Engine cases: the route table and validation over a socket (params, query, body, 422, 404,
 * 405, OPTIONS, HEAD, and the body parser's 400, 413 and 415).
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, post, put } from '../../../src/index.js';
import { type EngineName, engineApp, listen, type Served } from '../harness.js';

const Item = z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]) });

/** The route-table cases, run on `engine`. */
export function routingCases(engine: EngineName): void {
  describe('the route table and validation', () => {
    let s: Served;
    beforeAll(async () => {
      const made = engineApp(engine, { bodyLimit: 256 });
      made.app.addRoutes(
        get(
          '/items/:id',
          {
            params: z.object({ id: z.coerce.number().int() }),
            query: z.object({ fields: z.array(z.string()).optional() }),
          },
          (c) => ({ id: c.params.id, fields: c.query.fields ?? null }),
        ),
        post('/items', { body: Item }, (c) => c.created({ id: 7, ...c.body })),
        put('/items/:id', { params: z.object({ id: z.string() }) }, (c) => c.noContent()),
        get('/text', (c) => {
          c.reply.header('content-type', 'text/plain; charset=utf-8');
          return 'plain';
        }),
      );
      s = await listen(made);
    });
    afterAll(() => s?.close());

    it('gives the handler typed params and query', async () => {
      const res = await s.send('/items/42?fields=a&fields=b');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toEqual({ id: 42, fields: ['a', 'b'] });
      // One value against an array schema is an array of one.
      expect((await s.send('/items/1?fields=a')).json()).toEqual({ id: 1, fields: ['a'] });
    });

    it('answers 201 with the validated JSON body, defaults applied', async () => {
      const res = await s.send('/items', { method: 'POST', body: { name: 'kettle' } });
      expect(res.status).toBe(201);
      expect(res.json()).toEqual({ id: 7, name: 'kettle', tags: [] });
    });

    it('answers 204 with no body and no content type', async () => {
      const res = await s.send('/items/x', { method: 'PUT' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['content-type']).toBeUndefined();
    });

    it('answers 422 problem+json naming each bad field, the same body on every engine', async () => {
      const res = await s.send('/items', {
        method: 'POST',
        body: { name: '', tags: 'x' },
        headers: { 'x-request-id': 'req-422' },
      });
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Unprocessable Entity',
        status: 422,
        detail: 'The request did not pass validation.',
        code: 'VALIDATION_FAILED',
        requestId: 'req-422',
        errors: [
          { path: 'body.name', message: 'Too small: expected string to have >=1 characters' },
          { path: 'body.tags', message: 'Invalid input: expected array, received string' },
        ],
      });
      const params = await s.send('/items/abc');
      expect(params.status).toBe(422);
      expect((params.json() as { errors: unknown }).errors).toEqual([
        { path: 'params.id', message: 'Invalid input: expected number, received NaN' },
      ]);
    });

    it('answers 404 problem+json on an unknown path, and on /items/ for /items/:id', async () => {
      for (const path of ['/nowhere', '/items/']) {
        const res = await s.send(path, { headers: { 'x-request-id': 'req-404' } });
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(res.json()).toEqual({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: `No route matches GET ${path}.`,
          code: 'NOT_FOUND',
          requestId: 'req-404',
        });
      }
    });

    it('answers 405 with Allow on a routed path and a method it has no route for', async () => {
      const res = await s.send('/items/1', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, PUT');
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Method Not Allowed',
        status: 405,
        detail: 'DELETE is not allowed on /items/1.',
        code: 'METHOD_NOT_ALLOWED',
        requestId: res.headers['x-request-id'],
      });
    });

    it('answers a plain OPTIONS with 204 and Allow, and 404 on a path nobody routes', async () => {
      const res = await s.send('/items/1', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS, PUT');
      expect(res.text).toBe('');
      expect((await s.send('/nowhere', { method: 'OPTIONS' })).status).toBe(404);
    });

    it('answers HEAD of a GET route with its headers and no body', async () => {
      const got = await s.send('/items/5');
      const res = await s.send('/items/5', { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers['content-type']).toBe(got.headers['content-type']);
      expect(res.headers['content-length']).toBe(got.headers['content-length']);
    });

    it('keeps a content type the handler set', async () => {
      const res = await s.send('/text');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toBe('plain');
    });

    it('answers malformed JSON with 400, an unknown content type with 415, a body over the limit with 413', async () => {
      const json = { 'content-type': 'application/json' };
      const cases = [
        [
          { headers: json, body: '{"name":' },
          [400, 'Bad Request', 'Request body is not valid JSON.', 'MALFORMED_JSON'],
        ],
        [
          { headers: { 'content-type': 'text/xml' }, body: '<a/>' },
          [
            415,
            'Unsupported Media Type',
            'Content-Type of the request body is not supported.',
            'UNSUPPORTED_MEDIA_TYPE',
          ],
        ],
        [
          { body: { name: 'x'.repeat(300) } },
          [413, 'Payload Too Large', 'Request body is too large.', 'PAYLOAD_TOO_LARGE'],
        ],
      ] as const;
      for (const [init, [status, title, detail, code]] of cases) {
        const res = await s.send('/items', { method: 'POST', ...init });
        expect([code, res.status]).toEqual([code, status]);
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        const requestId = res.headers['x-request-id'];
        expect(res.json()).toEqual({ type: 'about:blank', title, status, detail, code, requestId });
      }
    });
  });
}
