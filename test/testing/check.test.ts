import { describe, expect, it } from 'vitest';
import type { OpenApiDocument, OperationObject } from '../../src/docs/types.js';
import { isJson, ResponseChecker } from '../../src/testing/check.js';
import { peers } from '../../src/testing/peers.js';

// What the contract check says of one response, for every way it can disagree with the document.

const { newAjv } = await peers();
const doc = {
  components: {
    schemas: {
      Item: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    },
  },
} as unknown as OpenApiDocument;
const op = {
  operationId: 'op',
  responses: {
    '200': {
      description: 'OK',
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/Item' } },
        'text/*': { schema: { type: 'string', maxLength: 3 } },
        'image/png': { schema: { type: 'object' } },
      },
    },
    '201': {
      description: 'Created',
      content: { 'application/vnd.x+json': { schema: { type: 'array' } } },
    },
    '202': { description: 'Accepted', content: { '*/*': {} } },
    '204': { description: 'No Content' },
    '4XX': {
      description: 'Client error',
      content: { 'application/problem+json': { schema: { type: 'object', required: ['status'] } } },
    },
  },
} as unknown as OperationObject;

describe('ResponseChecker', () => {
  it('names each way a response disagrees with the document', () => {
    const checker = new ResponseChecker(newAjv(), doc);
    const check = (status: number, contentType: string | undefined, body: string, method = 'GET') =>
      checker.check(op, method, { status, contentType, body });
    const cases: [string[], string[]][] = [
      [check(200, 'application/json; charset=utf-8', '{"id":1}'), []],
      [check(200, ' Application/JSON ', '{"id":1}'), []],
      [check(200, 'text/plain', 'abc'), []],
      [
        check(200, 'text/plain', 'abcd'),
        [
          'the body does not match the schema of status 200: / must NOT have more than 3 characters',
        ],
      ],
      [check(200, 'image/png', 'binary'), []],
      [check(201, 'application/vnd.x+json', '[1]'), []],
      [
        check(201, 'application/vnd.x+json', '{}'),
        ['the body does not match the schema of status 201: / must be array'],
      ],
      [check(202, 'application/octet-stream', 'x'), []],
      [
        check(200, 'application/json', '{"id":"1"}'),
        ['the body does not match the schema of status 200: /id must be integer'],
      ],
      [check(200, 'application/json', '{'), ['the application/json body is not JSON: {']],
      [
        check(200, 'application/xml', '<a/>'),
        [
          'media type application/xml is not declared for status 200 (declared: application/json, text/*, image/png)',
        ],
      ],
      [check(200, undefined, '{}'), ['status 200 has a body without a content-type']],
      [
        check(200, 'application/json', ''),
        ['status 200 declares a body (application/json, text/*, image/png), none was sent'],
      ],
      [check(200, 'application/json', '', 'HEAD'), []],
      [check(204, undefined, ''), []],
      [
        check(204, 'text/plain', 'oops'),
        ['status 204 is declared without a body, but one was sent (text/plain)'],
      ],
      [
        check(204, undefined, 'oops'),
        ['status 204 is declared without a body, but one was sent (no content-type)'],
      ],
      [check(204, 'text/plain', 'oops', 'HEAD'), []],
      [check(404, 'application/problem+json', '{"status":404}'), []],
      [
        check(404, 'application/problem+json', '{}'),
        [
          "the body does not match the schema of status 404: / must have required property 'status'",
        ],
      ],
      [check(500, 'application/json', '{}'), ['status 500 is not declared']],
    ];
    for (const [got, want] of cases) expect(got).toEqual(want);
  });

  it('lists at most three schema errors', () => {
    const many = {
      operationId: 'm',
      responses: {
        '200': {
          description: 'OK',
          content: {
            'application/json': { schema: { type: 'object', required: ['a', 'b', 'c', 'd'] } },
          },
        },
      },
    } as unknown as OperationObject;
    const [why] = new ResponseChecker(newAjv(), doc).check(many, 'GET', {
      status: 200,
      contentType: 'application/json',
      body: '{}',
    });
    expect(why?.split('; ')).toHaveLength(3);
    // A long body that is not JSON is quoted in part.
    const [cut] = new ResponseChecker(newAjv(), doc).check(many, 'GET', {
      status: 200,
      contentType: 'application/json',
      body: `{${'x'.repeat(200)}`,
    });
    expect(cut).toBe(`the application/json body is not JSON: {${'x'.repeat(79)}`);
  });

  it('calls application/json and +json types JSON, and nothing else', () => {
    expect(
      [
        'application/json',
        'application/problem+json',
        'text/json',
        'application/json+x',
        '+jsonx',
      ].map(isJson),
    ).toEqual([true, true, false, false, false]);
  });

  it('says whether a schema accepts a value, and does not refuse what Ajv cannot compile', () => {
    const checker = new ResponseChecker(newAjv(), doc);
    expect(checker.accepts({ $ref: '#/components/schemas/Item' }, { id: 1 })).toBe(true);
    expect(checker.accepts({ $ref: '#/components/schemas/Item' }, { id: 'a' })).toBe(false);
    expect(checker.accepts({ type: 'string', pattern: '^a\\_b$' }, 'zzz')).toBe(true);
  });
});
