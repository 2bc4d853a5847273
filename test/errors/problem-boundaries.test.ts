import { describe, expect, it } from 'vitest';
import { KError, toProblem } from '../../src/errors/index.js';

const secret = 'password=hunter2 at db-7';

describe('toProblem at the 4xx/5xx boundary', () => {
  it('hides the message of an error carrying exactly 500', () => {
    const p = toProblem(Object.assign(new Error(secret), { statusCode: 500 }));
    expect(p).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(JSON.stringify(p)).not.toContain('hunter2');
  });

  it('keeps the message of an error carrying exactly 499', () => {
    const p = toProblem(Object.assign(new Error('client went away'), { statusCode: 499 }));
    expect(p).toMatchObject({ status: 499, detail: 'client went away' });
  });

  it('uses the status phrase when a 4xx says its message is not for clients (expose: false)', () => {
    const p = toProblem(Object.assign(new Error(secret), { statusCode: 409, expose: false }));
    expect(p).toMatchObject({ status: 409, detail: 'Conflict' });
  });

  it('uses the status phrase for a 4xx with an empty message', () => {
    expect(toProblem(Object.assign(new Error(''), { statusCode: 404 })).detail).toBe('Not Found');
  });

  it('uses the status phrase for a 4xx whose message is not a string', () => {
    expect(toProblem({ statusCode: 409, message: { secret } }).detail).toBe('Conflict');
  });
});

describe('toProblem on odd input', () => {
  it('leaves errors out of a problem that has none', () => {
    expect(Object.keys(toProblem(Object.assign(new Error('gone'), { statusCode: 404 })))).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'code',
    ]);
  });

  it("keeps only a KError's issues whose path and message are both strings", () => {
    const err = new KError({
      code: 'BAD',
      statusCode: 422,
      message: 'bad',
      errors: [
        { path: 'body.a', message: 'ok' },
        { path: 1, message: 'path is a number' },
        { path: 'body.b', message: 2 },
      ] as never,
    });
    expect(toProblem(err).errors).toEqual([{ path: 'body.a', message: 'ok' }]);
  });

  it('answers 500 for a KError whose code or message was replaced by a non-string', () => {
    const noCode = Object.assign(new KError({ code: 'X', statusCode: 409, message: 'm' }), {
      code: 7,
    });
    const noMessage = new KError({ code: 'X', statusCode: 409, message: 'm' });
    Object.defineProperty(noMessage, 'message', { value: { text: 'm' } });
    expect(toProblem(noCode).status).toBe(500);
    expect(toProblem(noMessage).status).toBe(500);
  });

  it('answers 500 for a thrown function, whatever statusCode it carries', () => {
    const fn = Object.assign(() => {}, { statusCode: 404, message: 'nope' });
    expect(toProblem(fn).status).toBe(500);
  });

  it('does not read a code that names an Object.prototype member as a Fastify error', () => {
    const p = toProblem(
      Object.assign(new Error('taken'), { statusCode: 409, code: 'constructor' }),
    );
    expect(p).toMatchObject({ status: 409, code: 'CONFLICT', detail: 'taken' });
  });

  it('answers MALFORMED_JSON only for a 400 SyntaxError; another status keeps its own', () => {
    const bad400 = toProblem(
      Object.assign(new SyntaxError('Unexpected token } at 9'), { statusCode: 400 }),
    );
    expect(bad400).toMatchObject({
      code: 'MALFORMED_JSON',
      detail: 'Request body is not valid JSON.',
    });
    const other = toProblem(Object.assign(new SyntaxError('bad filter'), { statusCode: 422 }));
    expect(other).toMatchObject({ status: 422, detail: 'bad filter' });
  });
});

describe("toProblem on Fastify's schema validation errors", () => {
  function validationError(validationContext: unknown, validation: unknown[]) {
    return Object.assign(new Error('body/a must be string'), {
      statusCode: 400,
      code: 'FST_ERR_VALIDATION',
      validationContext,
      validation,
    });
  }

  it('answers 422 with one issue per failed keyword, paths joined without empty segments', () => {
    const p = toProblem(
      validationError('querystring', [
        { instancePath: '/filter/name', message: 'must be string' },
        { instancePath: '', message: 'must have required property id' },
      ]),
    );
    expect(p).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      detail: 'Request validation failed.',
    });
    expect(p.errors).toEqual([
      { path: 'query.filter.name', message: 'must be string' },
      { path: 'query', message: 'must have required property id' },
    ]);
  });

  it('copes with a missing context, a missing instancePath and a missing message', () => {
    const p = toProblem(validationError(undefined, [{ instancePath: 7 }, null]));
    expect(p.errors).toEqual([
      { path: '', message: 'is invalid' },
      { path: '', message: 'is invalid' },
    ]);
  });

  it('answers 422 with no issues when the validation list is missing', () => {
    const missing = toProblem(Object.assign(validationError('body', []), { validation: 'x' }));
    expect(missing).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(missing.errors).toEqual([]);
  });

  it('starts a path with no context at its first segment', () => {
    const p = toProblem(validationError(undefined, [{ instancePath: '/a/0', message: 'm' }]));
    expect(p.errors).toEqual([{ path: 'a.0', message: 'm' }]);
  });
});

describe("toProblem on Fastify's body errors", () => {
  it('says what is wrong with a Content-Length that does not match the body', () => {
    const err = Object.assign(new Error('FST'), {
      statusCode: 400,
      code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    });
    expect(toProblem(err)).toMatchObject({
      status: 400,
      code: 'INVALID_CONTENT_LENGTH',
      detail: 'Request body size did not match Content-Length.',
    });
  });
});
