import { describe, expect, it } from 'vitest';
import type { OperationObject } from '../../src/docs/types.js';
import { get, internal } from '../../src/index.js';
import { refusal, serverErrorsOf } from '../../src/testing/judge.js';
import type { DerivedRequest } from '../../src/testing/requests.js';
import { testApp } from '../app/helpers.js';

// Which 4xx answers to a valid request are refusals it could have avoided, and which 5xx a
// route declares itself.

const op = (...statuses: number[]) =>
  ({
    operationId: 'x',
    responses: Object.fromEntries(statuses.map((s) => [String(s), { description: '' }])),
  }) as OperationObject;
const req = (known: boolean, extra: Partial<DerivedRequest> = {}): DerivedRequest => ({
  method: 'GET',
  url: '/x',
  headers: {},
  path: {},
  known,
  ...extra,
});

describe('refusal', () => {
  it('excuses what the request could not avoid, and only that', () => {
    expect(refusal(op(401, 403), req(true), 401, '')).toBeUndefined();
    expect(refusal(op(401, 403), req(true), 403, '')).toBeUndefined();
    expect(refusal(op(), req(true), 401, '')).toMatch(/^valid request refused: 401$/);
    expect(refusal(op(404), req(false), 404, '')).toBeUndefined();
    expect(refusal(op(404), req(true), 404, '{"detail":"gone"}')).toBe(
      'valid request refused: 404: {"detail":"gone"}',
    );
    expect(refusal(op(409), req(true), 409, '')).toBeUndefined();
    expect(refusal(op(), req(true), 409, '')).toMatch(/^valid request refused: 409/);
    expect(refusal(op(422), req(true), 422, '')).toMatch(/^valid request refused: 422/);
    expect(refusal(op(), req(true, { invalid: 'x' }), 422, '')).toBeUndefined();
    expect(refusal(op(), req(true, { incomplete: 'x' }), 415, '')).toBeUndefined();
    expect(refusal(op(), req(true), 302, '')).toBeUndefined();
    expect(refusal(op(), req(true), 400, 'x'.repeat(300))).toHaveLength(
      'valid request refused: 400: '.length + 160,
    );
  });

  it('quotes the body on one line, whole up to 160 characters, and judges no 5xx', () => {
    expect(refusal(op(), req(true), 400, ' a\n\n  b\t')).toBe('valid request refused: 400: a b');
    expect(refusal(op(), req(true), 400, 'x'.repeat(160))).toBe(
      `valid request refused: 400: ${'x'.repeat(160)}`,
    );
    expect(refusal(op(), req(true), 500, 'boom')).toBeUndefined();
    expect(refusal(op(), req(true), 499, '')).toBe('valid request refused: 499');
    expect(refusal(op(), req(false), 404, '')).toBeUndefined();
  });
});

describe('serverErrorsOf', () => {
  it("leaves Keelson's blanket 500 out, keeps one the route names", async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/plain', () => 'x'),
      get('/named', { errors: [500, 502] }, () => {
        throw internal('x');
      }),
    );
    const doc = await app.openapi();
    expect(doc.paths['/plain']?.get?.responses['500']).toBeDefined();
    expect([...serverErrorsOf(doc, '/plain', 'GET')]).toEqual([]);
    expect([...serverErrorsOf(doc, '/named', 'GET')].sort()).toEqual([500, 502]);
    expect([...serverErrorsOf(doc, '/named', 'HEAD')].sort()).toEqual([500, 502]);
    // Another document: a 5xx listed by number counts.
    expect([...serverErrorsOf(structuredClone(doc), '/plain', 'GET')]).toEqual([500]);
  });
});
