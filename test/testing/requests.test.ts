import { describe, expect, it } from 'vitest';
import type { JsonSchema, OperationObject } from '../../src/docs/types.js';
import { Arbitraries } from '../../src/testing/arbitrary.js';
import { peers } from '../../src/testing/peers.js';
import { type DerivedRequest, deriveRequests } from '../../src/testing/requests.js';

// The requests keelson/testing derives from one operation: valid ones built from every kind of
// parameter and the body, and the invalid ones, each with what breaks it.

const { fc } = await peers();
const components: Record<string, JsonSchema> = {
  Item: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer' } },
    required: ['name'],
  },
};
const options = (invalid: boolean) => ({
  fc,
  arbitraries: new Arbitraries(fc, components),
  runs: 40,
  seed: 7,
  invalid,
});

const op: OperationObject = {
  operationId: 'putItem',
  responses: {},
  parameters: [
    { name: 'id', in: 'path', required: true, schema: { type: 'string', enum: ['a b', 'c/d'] } },
    {
      name: 'limit',
      in: 'query',
      required: true,
      schema: { type: 'integer', minimum: 1, maximum: 9 },
    },
    { name: 'tag', in: 'query', schema: { type: 'string', maxLength: 3 } },
    { name: 'mode', in: 'header', required: true, schema: { enum: ['fast'] } },
    { name: 'sid', in: 'cookie', required: true, schema: { const: 'x y' } },
    { name: 'theme', in: 'cookie', schema: { const: 'dark' } },
    { name: 'free', in: 'header', schema: { type: 'boolean' } },
  ],
  requestBody: {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
  },
} as OperationObject;

const valid = (rs: DerivedRequest[]) => rs.filter((r) => r.invalid === undefined);

describe('deriveRequests', () => {
  it('builds valid requests from the path, query, header, cookie and body schemas', () => {
    const rs = deriveRequests('/items/{id}', 'PUT', op, options(false));
    expect(rs).toHaveLength(40);
    for (const r of rs) {
      expect(r.method).toBe('PUT');
      const url = new URL(r.url, 'http://x');
      expect(['/items/a%20b', '/items/c%2Fd']).toContain(url.pathname);
      // Only query parameters in the query; limit always, tag sometimes.
      expect([...url.searchParams.keys()].every((k) => k === 'limit' || k === 'tag')).toBe(true);
      expect(Number(url.searchParams.get('limit'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.mode).toBe('fast');
      expect(r.headers.cookie).toMatch(/^sid=x%20y(; theme=dark)?$/);
      expect(r.headers['content-type']).toBe('application/json');
      const body = JSON.parse(r.payload!);
      expect(typeof body.name).toBe('string');
    }
    expect(rs.some((r) => r.url.includes('tag='))).toBe(true);
    expect(rs.some((r) => !r.url.includes('tag='))).toBe(true);
    expect(rs.some((r) => r.headers.cookie?.includes('theme=dark'))).toBe(true);
    expect(rs.some((r) => 'free' in r.headers)).toBe(true);
    expect(rs.some((r) => r.headers.free === 'true' || r.headers.free === 'false')).toBe(true);
  });

  it('adds one invalid request per thing it can break, each saying what', () => {
    const rs = deriveRequests('/items/{id}', 'PUT', op, options(true));
    expect(valid(rs)).toHaveLength(40);
    const broken = rs.filter((r) => r.invalid !== undefined);
    expect(broken.map((r) => r.invalid)).toEqual([
      'the required query parameter limit is missing',
      'the query parameter limit is not-a-number',
      'the query parameter tag is xxxx',
      'the required header parameter mode is missing',
      'the header parameter mode is ~not-one-of-the-values~',
      'the required cookie parameter sid is missing',
      'the body is malformed JSON',
      'the body lacks the required name',
      'the body has the wrong JSON type',
      'the body has a media type no route parses',
    ]);
    const by = Object.fromEntries(broken.map((r) => [r.invalid, r]));
    const base = rs[0]!;
    expect(
      new URL(
        by['the required query parameter limit is missing']!.url,
        'http://x',
      ).searchParams.has('limit'),
    ).toBe(false);
    expect(
      new URL(by['the query parameter limit is not-a-number']!.url, 'http://x').searchParams.get(
        'limit',
      ),
    ).toBe('not-a-number');
    expect(by['the required header parameter mode is missing']!.headers.mode).toBeUndefined();
    expect(by['the header parameter mode is ~not-one-of-the-values~']!.headers.mode).toBe(
      '~not-one-of-the-values~',
    );
    expect(by['the required cookie parameter sid is missing']!.headers.cookie ?? '').not.toContain(
      'sid=',
    );
    expect(by['the body is malformed JSON']).toMatchObject({
      payload: '{"unterminated":',
      headers: { 'content-type': 'application/json' },
    });
    expect(JSON.parse(by['the body lacks the required name']!.payload!)).not.toHaveProperty('name');
    expect(by['the body has the wrong JSON type']!.payload).toBe('12345');
    expect(by['the body has a media type no route parses']).toMatchObject({
      payload: 'x',
      headers: { 'content-type': 'application/x-keelson-unknown' },
    });
    // Everything not broken stays as in the first valid request.
    expect(by['the body is malformed JSON']!.url).toBe(base.url);
  });

  it('derives no body from a body that is not JSON, and no invalid requests without a sample', () => {
    const form: OperationObject = {
      operationId: 'upload',
      responses: {},
      requestBody: {
        required: false,
        content: { 'multipart/form-data': { schema: { type: 'object' } } },
      },
    } as OperationObject;
    const rs = deriveRequests('/up', 'POST', form, options(true));
    expect(valid(rs).every((r) => r.payload === undefined && !('content-type' in r.headers))).toBe(
      true,
    );
    expect(rs.filter((r) => r.invalid).map((r) => r.invalid)).toEqual([
      'the body has a media type no route parses',
    ]);
    const array: OperationObject = {
      operationId: 'bulk',
      responses: {},
      requestBody: {
        required: false,
        content: { 'application/json': { schema: { type: 'array', items: { type: 'integer' } } } },
      },
    } as OperationObject;
    expect(
      deriveRequests('/bulk', 'POST', array, options(true))
        .filter((r) => r.invalid)
        .map((r) => r.invalid),
    ).toEqual([
      'the body is malformed JSON',
      'the body has the wrong JSON type',
      'the body has a media type no route parses',
    ]);
    const plain: OperationObject = { operationId: 'get', responses: {} } as OperationObject;
    const got = deriveRequests('/p', 'GET', plain, { ...options(true), runs: 3 });
    expect(got).toStrictEqual([
      { method: 'GET', url: '/p', headers: {}, path: {}, known: true },
      { method: 'GET', url: '/p', headers: {}, path: {}, known: true },
      { method: 'GET', url: '/p', headers: {}, path: {}, known: true },
    ]);
    expect(deriveRequests('/p', 'GET', op, { ...options(true), runs: 0 })).toEqual([]);
  });

  it('keeps path, header and cookie strings plain, lets query strings be anything, and breaks only what it can', () => {
    const strings: OperationObject = {
      operationId: 'strings',
      responses: {},
      parameters: [
        { name: 'q', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
        { name: 'ratio', in: 'query', required: false, schema: { type: 'number' } },
        { name: 'note', in: 'header', required: true, schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'string' } } },
      },
    } as OperationObject;
    const rs = deriveRequests('/s', 'POST', strings, { ...options(true), runs: 60 });
    const plain = /^[A-Za-z0-9_-]+$/;
    expect(valid(rs).every((r) => plain.test(r.headers.note!))).toBe(true);
    const qs = valid(rs).map((r) => new URL(r.url, 'http://x').searchParams.get('q')!);
    expect(qs.some((q) => !plain.test(q))).toBe(true);
    expect(rs.filter((r) => r.invalid).map((r) => r.invalid)).toEqual([
      'the required query parameter q is missing',
      'the query parameter ratio is not-a-number',
      'the required header parameter note is missing',
      'the body is malformed JSON',
      'the body has a media type no route parses',
    ]);
    const noContent = {
      operationId: 'n',
      responses: {},
      requestBody: { required: false, content: {} },
    };
    expect(
      deriveRequests('/n', 'POST', noContent as OperationObject, options(true)).filter(
        (r) => r.invalid,
      ),
    ).toEqual([]);
  });

  it('repeats a query array parameter and writes a non-string value as JSON', () => {
    const list: OperationObject = {
      operationId: 'list',
      responses: {},
      parameters: [
        {
          name: 'ids',
          in: 'query',
          required: true,
          schema: { type: 'array', items: { const: 3 }, minItems: 2, maxItems: 2 },
        },
        { name: 'at', in: 'path', required: true, schema: { const: { a: 1 } } },
      ],
    } as OperationObject;
    const [r] = deriveRequests('/l/{at}', 'GET', list, { ...options(false), runs: 1 });
    expect(r!.url).toBe(`/l/${encodeURIComponent('{"a":1}')}?ids=3&ids=3`);
  });
});
