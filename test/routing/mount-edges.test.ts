import { gzipSync } from 'node:zlib';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, post } from '../../src/index.js';
import { mediaTypeOf } from '../../src/routing/media-type.js';
import { testApp } from '../app/helpers.js';

// Edges of how a route is mounted: empty path parameters, default statuses, string answers,
// text bodies on JSON routes, and response schemas whose library has no JSON Schema side.

/** A Standard Schema without a JSON Schema side: the answer is validated, not serialized. */
function validatingOnly(
  check: (value: unknown) => StandardSchemaV1.Result<unknown>,
  async = false,
): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => (async ? Promise.resolve(check(value)) : check(value)),
    },
  };
}

const logged = (lines: string[]): string => lines.join('\n');

describe('mounting a route', () => {
  it('answers 404 when a required path parameter is empty, and not when it is optional', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/users/:id', (c) => c.params),
      get('/pairs/:first/items/:second', (c) => c.params),
      get('/opt/:tag?', (c) => c.params),
    );
    const cases: [string, number][] = [
      ['/users/', 404],
      ['/users/7', 200],
      ['/pairs/a/items/', 404],
      ['/pairs/a/items/b', 200],
      ['/opt/', 200],
    ];
    for (const [url, status] of cases) {
      expect([url, (await app.inject(url)).statusCode]).toEqual([url, status]);
    }
    expect((await app.inject('/opt/')).json()).toEqual({ tag: '' });
  });

  it('answers with the first success status the route declares, 200 when none', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/made', { responses: { 201: z.object({ id: z.number() }) } }, () => ({ id: 1 })),
      get('/plain', () => ({ id: 2 })),
    );
    const made = await app.inject('/made');
    expect([made.statusCode, made.json()]).toEqual([201, { id: 1 }]);
    const plain = await app.inject('/plain');
    expect([plain.statusCode, plain.json()]).toEqual([200, { id: 2 }]);
  });

  it('answers 204 for no answer, but keeps a status the handler set', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/none', () => undefined),
      get('/accepted', (c) => {
        c.reply.code(202);
        return undefined;
      }),
      get('/null', () => null),
    );
    expect((await app.inject('/none')).statusCode).toBe(204);
    expect((await app.inject('/accepted')).statusCode).toBe(202);
    const nul = await app.inject('/null');
    expect([nul.statusCode, nul.body]).toEqual([200, 'null']);
  });

  it('sends a string as JSON unless the handler set another media type', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/json', () => 'hi'),
      get('/text', (c) => {
        c.header('content-type', 'text/plain; charset=utf-8');
        return 'hi';
      }),
      get('/typed-json', (c) => {
        c.header('content-type', 'application/json');
        return 'hi';
      }),
    );
    const json = await app.inject('/json');
    expect([json.headers['content-type'], json.body]).toEqual([
      'application/json; charset=utf-8',
      '"hi"',
    ]);
    const text = await app.inject('/text');
    expect([text.headers['content-type'], text.body]).toEqual(['text/plain; charset=utf-8', 'hi']);
    expect((await app.inject('/typed-json')).body).toBe('"hi"');
  });

  it('refuses a text body on a route that takes a JSON body, and only there', async () => {
    const { app } = testApp();
    app.addRoutes(
      post('/body', { body: z.object({ n: z.number() }) }, (c) => c.body),
      post('/query', { query: z.object({ q: z.string().optional() }) }, () => ({ ok: true })),
    );
    const text = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'text/plain' },
      payload: 'n=1',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().detail).toBe(
      'This route takes a JSON body (Content-Type: application/json), not text/plain.',
    );
    const json = await app.inject({ method: 'POST', url: '/body', payload: { n: 1 } });
    expect([json.statusCode, json.json()]).toEqual([200, { n: 1 }]);
    const other = await app.inject({
      method: 'POST',
      url: '/query',
      headers: { 'content-type': 'text/plain' },
      payload: 'anything',
    });
    expect([other.statusCode, other.json()]).toEqual([200, { ok: true }]);
  });
});

describe('request bodies on mounted routes', () => {
  it('reads a gzip-encoded JSON body and sends a JSON string body to validation (422), not a 415', async () => {
    const { app } = testApp();
    app.addRoutes(post('/body', { body: z.object({ n: z.number() }) }, (c) => c.body));
    const zipped = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ n: 3 })),
    });
    expect([zipped.statusCode, zipped.body]).toEqual([200, '{"n":3}']);
    const jsonString = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/json' },
      payload: '"n"',
    });
    expect(jsonString.statusCode).toBe(422);
  });
});

describe('response schemas without a JSON Schema side', () => {
  it('validate the answer, send the validated value, and answer 500 on a mismatch', async () => {
    for (const async of [false, true]) {
      const { app, lines } = testApp();
      const upper = validatingOnly(
        (v) =>
          typeof v === 'string' && v !== 'bad'
            ? { value: v.toUpperCase() }
            : { issues: [{ message: 'must be a good string' }] },
        async,
      );
      const noMessage = validatingOnly(() => ({ issues: [] }), async);
      app.addRoutes(
        get('/ok', { hidden: true, responses: { 200: upper } }, () => 'hi'),
        get('/bad', { hidden: true, responses: { 200: upper } }, () => 'bad'),
        get('/empty', { hidden: true, responses: { 200: noMessage } }, () => 'x'),
      );
      const ok = await app.inject('/ok');
      expect([async, ok.statusCode, ok.headers['content-type'], ok.body]).toEqual([
        async,
        200,
        'application/json; charset=utf-8',
        '"HI"',
      ]);
      const bad = await app.inject('/bad');
      expect([async, bad.statusCode, bad.json().detail]).toEqual([
        async,
        500,
        'The response could not be produced.',
      ]);
      expect(logged(lines)).toContain(
        'route GET /bad: response does not match its schema: must be a good string',
      );
      expect((await app.inject('/empty')).statusCode).toBe(500);
      expect(logged(lines)).toContain(
        'route GET /empty: response does not match its schema: invalid',
      );
    }
  });

  it('refuse at mount a response schema that is not a Standard Schema, naming where', async () => {
    const bad: unknown[] = [{}, { '~standard': {} }, { '~standard': { validate: 'no' } }];
    for (const schema of bad) {
      const { app } = testApp();
      app.addRoutes(
        get('/x', { hidden: true, responses: { 200: schema as StandardSchemaV1 } }, () => 1),
      );
      await expect(app.ready()).rejects.toThrow(
        new Error('route GET /x: the 200 response schema is not a Standard Schema value'),
      );
    }
  });

  it('ask the library for draft-07 JSON Schema and name where when it cannot give one', async () => {
    const withJson = (output: (o: { target: string }) => Record<string, unknown>) =>
      ({
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: (value: unknown) => ({ value }),
          jsonSchema: { input: output, output },
        },
      }) as unknown as StandardSchemaV1;
    const drafted = withJson(({ target }) => {
      if (target !== 'draft-07') throw new Error(`no ${target}`);
      return { type: 'object', properties: { a: { type: 'number' } } };
    });
    const { app } = testApp();
    app.addRoutes(get('/d', { hidden: true, responses: { 200: drafted } }, () => ({ a: 1, b: 2 })));
    expect((await app.inject('/d')).json()).toEqual({ a: 1 });
    const broken = withJson(() => {
      throw new Error('too clever');
    });
    const other = testApp().app;
    other.addRoutes(get('/e', { hidden: true, responses: { 201: broken } }, () => 1));
    await expect(other.ready()).rejects.toThrow(
      new Error(
        'route GET /e: the 201 response schema cannot be expressed as JSON Schema: too clever',
      ),
    );
  });
});

describe('mediaTypeOf', () => {
  it('reads the marker of a marked schema and nothing from anything else', () => {
    const cases: [unknown, string | undefined][] = [
      [{ '~keelson': { mediaType: 'text/csv' } }, 'text/csv'],
      [{ '~keelson': { mediaType: 5 } }, undefined],
      [{ '~keelson': null }, undefined],
      [{}, undefined],
      [null, undefined],
      [undefined, undefined],
      ['~keelson', undefined],
      [7, undefined],
    ];
    for (const [schema, type] of cases)
      expect([schema, mediaTypeOf(schema)]).toEqual([schema, type]);
  });
});
