import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { post } from '../../src/index.js';
import { isJsonType } from '../../src/request/body.js';
import { testApp } from '../app/helpers.js';

// Request bodies at their edges: encodings listed oddly, a bad layer under a good one,
// poisoned JSON, and which media types count as JSON.

function bodyApp() {
  const { app } = testApp();
  app.addRoutes(post('/users', { body: z.object({ name: z.string() }).loose() }, (c) => c.body));
  return app;
}

describe('request bodies', () => {
  it('skips empty entries and identity in a Content-Encoding list', async () => {
    const app = bodyApp();
    const body = gzipSync(Buffer.from('{"name":"Ada"}'));
    for (const encoding of ['gzip,', ', gzip', 'identity, gzip', 'GZIP , ,identity']) {
      const res = await app.inject({
        method: 'POST',
        url: '/users',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        payload: body,
      });
      expect([encoding, res.statusCode, res.json()]).toEqual([encoding, 200, { name: 'Ada' }]);
    }
  });

  it('answers 400 naming the coding when the first layer to undo is not valid', async () => {
    const app = bodyApp();
    const res = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json', 'content-encoding': 'deflate, gzip' },
      payload: Buffer.from('{"name":"Ada"}'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('The request body is not valid gzip data.');
  });

  it('refuses JSON that would poison a prototype with 400', async () => {
    const app = bodyApp();
    for (const payload of [
      '{"name":"Ada","__proto__":{"admin":true}}',
      '{"name":"Ada","constructor":{"prototype":{"admin":true}}}',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/users',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect([payload, res.statusCode]).toEqual([payload, 400]);
    }
  });

  it('reads an empty JSON body as no body', async () => {
    const app = bodyApp();
    const res = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('isJsonType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    [' application/json ; charset=utf-8', true],
    ['application/problem+json', true],
    ['application/vnd.api+json; ext=1', true],
    ['application/json5', false],
    ['application/jsonx', false],
    ['text/plain; profile=application/json', false],
    ['+json/text', false],
    ['text/plain', false],
    ['', false],
    [undefined, false],
  ])('says %j is JSON: %s', (type, expected) => {
    expect(isJsonType(type)).toBe(expected);
  });
});
