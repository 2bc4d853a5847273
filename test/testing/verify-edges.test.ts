import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/docs/types.js';
import { type ContractSubject, verifyContract } from '../../src/testing/index.js';

// verifyContract against a subject that answers 200 with `{}` to everything: what it reports,
// which operations it leaves out, and what it sends.

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/items': {
      post: {
        operationId: 'addItem',
        parameters: [{ name: 'n', in: 'query', required: true, schema: { type: 'integer' } }],
        requestBody: { required: true, ...json({ type: 'object' }) },
        responses: { '200': { description: 'OK', ...json({ type: 'object' }) } },
      },
    },
    '/events': {
      get: {
        operationId: 'events',
        responses: { '200': { description: 'OK', content: { 'text/event-stream': {} } } },
      },
      head: { operationId: 'eventsHead', responses: { '200': { description: 'OK' } } },
    },
    '/other': {
      get: {
        operationId: 'other',
        responses: { '200': { description: 'OK', ...json({ type: 'array' }) } },
      },
    },
  },
  components: { schemas: {} },
} as unknown as OpenApiDocument;

function subject(status = 200) {
  const sent: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: unknown;
  }[] = [];
  const s: ContractSubject = {
    openapi: async () => doc,
    inject: (async (options: (typeof sent)[number]) => {
      sent.push(options);
      return { statusCode: status, headers: { 'content-type': 'application/json' }, body: '{}' };
    }) as never,
  };
  return { s, sent };
}

describe('verifyContract', () => {
  it('reports invalid requests answered 2xx, with what was sent', async () => {
    const { s, sent } = subject();
    const violations = await verifyContract(s, {
      runs: 2,
      headers: { authorization: 'Bearer t' },
      include: (method, path) => method === 'POST' && path === '/items',
    });
    expect(new Set(sent.map((r) => `${r.method} ${r.url.split('?')[0]}`))).toEqual(
      new Set(['POST /items']),
    );
    expect(sent.every((r) => r.headers.authorization === 'Bearer t')).toBe(true);
    expect(violations.map((v) => v.invalid)).toEqual([
      'the required query parameter n is missing',
      'the query parameter n is not-a-number',
      'the body is malformed JSON',
      'the body has the wrong JSON type',
      'the body has a media type no route parses',
    ]);
    expect(violations[2]).toMatchObject({
      operation: 'POST /items',
      status: 200,
      request: {
        method: 'POST',
        payload: '{"unterminated":',
        headers: { authorization: 'Bearer t' },
      },
      problems: ['an invalid request (the body is malformed JSON) was answered 200'],
    });
  });

  it('skips event streams but not their HEAD, and reports a body the schema refuses', async () => {
    const { s, sent } = subject();
    const violations = await verifyContract(s, { runs: 1, invalid: false });
    expect(sent.map((r) => `${r.method} ${r.url.split('?')[0]}`).sort()).toEqual([
      'GET /other',
      'HEAD /events',
      'POST /items',
    ]);
    expect(sent.find((r) => r.method === 'GET')).not.toHaveProperty('payload');
    expect(violations).toStrictEqual([
      {
        operation: 'GET /other',
        request: { method: 'GET', url: '/other', headers: {} },
        status: 200,
        problems: ['the body does not match the schema of status 200: / must be array'],
      },
    ]);
  });

  it('counts a 3xx answer to an invalid request as no acceptance of it', async () => {
    const { s } = subject(300);
    const violations = await verifyContract(s, {
      runs: 1,
      include: (method) => method === 'POST',
    });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.flatMap((v) => v.problems)).not.toContainEqual(
      expect.stringMatching(/^an invalid request/),
    );
  });
});
