import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  badRequest,
  conflict,
  forbidden,
  internal,
  isKError,
  KError,
  notFound,
  PROBLEM_CONTENT_TYPE,
  type ProblemDetails,
  serviceUnavailable,
  statusTitle,
  tooManyRequests,
  toProblem,
  unauthorized,
  unprocessable,
} from '../src/errors/index.js';

const GENERIC_500: ProblemDetails = {
  type: 'about:blank',
  title: 'Internal Server Error',
  status: 500,
  detail: 'An unexpected error occurred.',
  code: 'INTERNAL',
};

describe('KError', () => {
  it('carries its code, status, message, cause, issues and headers', () => {
    const cause = new Error('socket closed');
    const err = new KError({
      code: 'OUT_OF_STOCK',
      statusCode: 409,
      message: 'item 7 is sold out',
      cause,
      errors: [{ path: 'body.item', message: 'sold out' }],
      headers: { 'x-item': '7' },
    });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('KError');
    expect(err.code).toBe('OUT_OF_STOCK');
    expect(err.statusCode).toBe(409);
    expect(err.message).toBe('item 7 is sold out');
    expect(err.cause).toBe(cause);
    expect(err.errors).toEqual([{ path: 'body.item', message: 'sold out' }]);
    expect(err.headers).toEqual({ 'x-item': '7' });
    expect(err.stack).toContain('KError: item 7 is sold out');
  });

  it('has no cause, no issues and empty frozen headers when none are given', () => {
    const err = new KError({ code: 'X', statusCode: 400, message: 'm' });
    expect('cause' in err).toBe(false);
    expect(err.errors).toBeUndefined();
    expect(err.headers).toEqual({});
    expect(Object.isFrozen(err.headers)).toBe(true);
  });

  it('copies the issues and headers it is given, so later changes to them do not leak in', () => {
    const errors = [{ path: 'body.a', message: 'required' }];
    const headers: Record<string, string> = { 'x-a': '1' };
    const err = new KError({ code: 'X', statusCode: 422, message: 'm', errors, headers });
    errors.push({ path: 'body.b', message: 'required' });
    headers['x-b'] = '2';
    expect(err.errors).toHaveLength(1);
    expect(err.headers).toEqual({ 'x-a': '1' });
  });

  it.each([399, 600, 200, 404.5, Number.NaN])(
    'rejects statusCode %s, naming the bad value',
    (s) => {
      expect(() => new KError({ code: 'X', statusCode: s, message: 'm' })).toThrow(
        new TypeError(`KError statusCode must be an integer in 400..599, got ${s}`),
      );
    },
  );

  it('rejects an empty code', () => {
    expect(() => new KError({ code: '', statusCode: 400, message: 'm' })).toThrow(
      /^KError code must be a non-empty string, got $/,
    );
  });

  it('can be subclassed with its own name', () => {
    class PaymentError extends KError {
      override readonly name = 'PaymentError';
    }
    const err = new PaymentError({ code: 'PAYMENT_DECLINED', statusCode: 402, message: 'no' });
    expect(isKError(err)).toBe(true);
    expect(err.name).toBe('PaymentError');
    expect(toProblem(err).code).toBe('PAYMENT_DECLINED');
  });
});

describe('isKError', () => {
  it('is true for a KError and false for anything else', () => {
    expect(isKError(notFound())).toBe(true);
    expect(isKError(new Error('x'))).toBe(false);
    expect(isKError({ code: 'NOT_FOUND', statusCode: 404, message: 'x' })).toBe(false);
    expect(isKError(null)).toBe(false);
    expect(isKError('NOT_FOUND')).toBe(false);
  });

  it('returns false instead of throwing for a Proxy whose prototype trap throws', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    expect(isKError(hostile)).toBe(false);
  });
});

describe('the helpers', () => {
  it.each([
    ['badRequest', badRequest, 400, 'BAD_REQUEST', 'Bad Request'],
    ['unauthorized', unauthorized, 401, 'UNAUTHORIZED', 'Unauthorized'],
    ['forbidden', forbidden, 403, 'FORBIDDEN', 'Forbidden'],
    ['notFound', notFound, 404, 'NOT_FOUND', 'Not Found'],
    ['conflict', conflict, 409, 'CONFLICT', 'Conflict'],
    ['internal', internal, 500, 'INTERNAL', 'Internal Server Error'],
    ['serviceUnavailable', serviceUnavailable, 503, 'SERVICE_UNAVAILABLE', 'Service Unavailable'],
  ] as const)(
    '%s builds a %i %s KError whose problem keeps the message and hides the cause',
    (_name, helper, status, code, title) => {
      const cause = new Error('secret cause');
      const err = helper('what the client should know', cause);
      expect(err).toBeInstanceOf(KError);
      expect(err.statusCode).toBe(status);
      expect(err.code).toBe(code);
      expect(err.cause).toBe(cause);
      expect(toProblem(err)).toEqual({
        type: 'about:blank',
        title,
        status,
        detail: 'what the client should know',
        code,
      });
      expect(JSON.stringify(toProblem(err))).not.toContain('secret cause');
    },
  );

  it.each([
    ['badRequest', badRequest, 'Bad Request'],
    ['unauthorized', unauthorized, 'Unauthorized'],
    ['forbidden', forbidden, 'Forbidden'],
    ['notFound', notFound, 'Not Found'],
    ['conflict', conflict, 'Conflict'],
    ['internal', internal, 'Internal Server Error'],
    ['serviceUnavailable', serviceUnavailable, 'Service Unavailable'],
    ['tooManyRequests', tooManyRequests, 'Too Many Requests'],
    ['unprocessable', unprocessable, 'Validation failed'],
  ] as const)('%s defaults its message to %s', (_name, helper, message) => {
    expect(helper().message).toBe(message);
  });

  it('unprocessable builds a 422 VALIDATION_FAILED whose problem lists the issues', () => {
    const errors = [
      { path: 'body.email', message: 'Invalid email' },
      { path: 'query.limit', message: 'Too big: expected number to be <=100' },
    ];
    const err = unprocessable('invalid request', errors);
    expect(err.statusCode).toBe(422);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(toProblem(err)).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'invalid request',
      code: 'VALIDATION_FAILED',
      errors,
    });
  });

  it('tooManyRequests builds a 429 with a Retry-After header in whole seconds, rounded up', () => {
    const err = tooManyRequests('slow down', 1.2);
    expect(err.statusCode).toBe(429);
    expect(err.code).toBe('TOO_MANY_REQUESTS');
    expect(err.headers).toEqual({ 'retry-after': '2' });
    expect(tooManyRequests(undefined, 0).headers).toEqual({ 'retry-after': '0' });
    expect(toProblem(err)).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
  });

  it('tooManyRequests sets no Retry-After header when no delay is given', () => {
    expect(tooManyRequests('slow down').headers).toEqual({});
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])(
    'tooManyRequests rejects a delay of %s',
    (s) => {
      expect(() => tooManyRequests('x', s)).toThrow(
        new TypeError(`retryAfterSeconds must be a finite number >= 0, got ${s}`),
      );
    },
  );
});

describe('statusTitle', () => {
  it('is the HTTP reason phrase, with a class-wide fallback for unknown codes', () => {
    expect(statusTitle(404)).toBe('Not Found');
    expect(statusTitle(405)).toBe('Method Not Allowed');
    expect(statusTitle(499)).toBe('Client Error');
    expect(statusTitle(599)).toBe('Server Error');
    expect(statusTitle(1000)).toBe('Unknown Status');
  });
});

describe('PROBLEM_CONTENT_TYPE', () => {
  it('is the RFC 9457 media type', () => {
    expect(PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
  });
});

describe('toProblem with errors Fastify raises', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** Sends one request through a real Fastify and returns what its error handler was given. */
  async function fastifyErrorFor(
    request: { method?: 'GET' | 'POST'; url?: string; headers?: Record<string, string> },
    payload?: string,
  ): Promise<unknown> {
    app = Fastify({ bodyLimit: 64 });
    let caught: unknown = 'nothing reached the error handler';
    app.setErrorHandler((err, _req, reply) => {
      caught = err;
      return reply.code(599).send();
    });
    app.post('/echo', async (req) => req.body);
    app.post(
      '/validated',
      {
        schema: {
          body: { type: 'object', required: ['email'], properties: { n: { type: 'integer' } } },
        },
      },
      async (req) => req.body,
    );
    await app.inject({
      method: request.method ?? 'POST',
      url: request.url ?? '/echo',
      headers: request.headers ?? {},
      ...(payload === undefined ? {} : { payload }),
    });
    return caught;
  }

  const json = { 'content-type': 'application/json' };

  it('maps a body that is not valid JSON to 400 MALFORMED_JSON without echoing the body', async () => {
    const err = await fastifyErrorFor({ headers: json }, '{"a": secret-body');
    expect(err).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    const body = toProblem(err);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'Request body is not valid JSON.',
      code: 'MALFORMED_JSON',
    });
  });

  it('maps an empty JSON body to 400 MALFORMED_JSON', async () => {
    const err = await fastifyErrorFor({ headers: json }, '');
    expect(err).toMatchObject({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
    expect(toProblem(err)).toMatchObject({
      status: 400,
      code: 'MALFORMED_JSON',
      detail: 'Request body is empty but Content-Type is application/json.',
    });
  });

  it('maps a body over the limit to 413 PAYLOAD_TOO_LARGE', async () => {
    const err = await fastifyErrorFor({ headers: json }, JSON.stringify({ a: 'x'.repeat(100) }));
    expect(err).toMatchObject({ code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(toProblem(err)).toEqual({
      type: 'about:blank',
      title: 'Payload Too Large',
      status: 413,
      detail: 'Request body is too large.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('maps a content type with no parser to 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const err = await fastifyErrorFor({ headers: { 'content-type': 'application/xml' } }, '<a/>');
    expect(err).toMatchObject({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    expect(toProblem(err)).toEqual({
      type: 'about:blank',
      title: 'Unsupported Media Type',
      status: 415,
      detail: 'Content-Type of the request body is not supported.',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('maps a body whose size does not match Content-Length to 400 INVALID_CONTENT_LENGTH', async () => {
    const err = await fastifyErrorFor({ headers: { ...json, 'content-length': '10' } }, '{}');
    expect(err).toMatchObject({ code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' });
    expect(toProblem(err)).toMatchObject({ status: 400, code: 'INVALID_CONTENT_LENGTH' });
  });

  it('maps a failed Fastify schema to 422 VALIDATION_FAILED with one issue per field', async () => {
    const err = await fastifyErrorFor({ url: '/validated', headers: json }, '{"n":"x"}');
    expect(err).toMatchObject({ code: 'FST_ERR_VALIDATION' });
    const body = toProblem(err);
    expect(body).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      title: 'Unprocessable Entity',
    });
    expect(body.errors).toEqual([{ path: 'body', message: "must have required property 'email'" }]);
  });

  it('names the field of a nested schema failure as a dotted path under its request part', () => {
    const err = Object.assign(new Error('querystring/limit must be integer'), {
      code: 'FST_ERR_VALIDATION',
      statusCode: 400,
      validationContext: 'querystring',
      validation: [{ instancePath: '/filter/limit', message: 'must be integer' }],
    });
    expect(toProblem(err).errors).toEqual([
      { path: 'query.filter.limit', message: 'must be integer' },
    ]);
  });
});

describe('toProblem with other client errors', () => {
  it('keeps a 4xx status with a code made from its reason phrase and the message as detail', () => {
    const err = Object.assign(new Error('Use GET here'), { statusCode: 405 });
    expect(toProblem(err)).toEqual({
      type: 'about:blank',
      title: 'Method Not Allowed',
      status: 405,
      detail: 'Use GET here',
      code: 'METHOD_NOT_ALLOWED',
    });
  });

  it('keeps an unmapped Fastify 4xx with its own message', () => {
    const err = Object.assign(new Error("'%E0%A4%A' is not a valid url component"), {
      code: 'FST_ERR_BAD_URL',
      statusCode: 400,
    });
    expect(toProblem(err)).toMatchObject({ status: 400, code: 'BAD_REQUEST', detail: err.message });
  });

  it('turns an apostrophe phrase into a clean code', () => {
    expect(toProblem(Object.assign(new Error('tea'), { statusCode: 418 })).code).toBe(
      'IM_A_TEAPOT',
    );
  });

  it('uses the reason phrase as detail when the message is empty or marked not to expose', () => {
    const empty = Object.assign(new Error(''), { statusCode: 404 });
    const hidden = Object.assign(new Error('row 9 of table users'), {
      statusCode: 404,
      expose: false,
    });
    expect(toProblem(empty).detail).toBe('Not Found');
    expect(toProblem(hidden).detail).toBe('Not Found');
  });

  it('maps a JSON parser SyntaxError with status 400 to MALFORMED_JSON without its message', () => {
    let err: unknown;
    try {
      JSON.parse('{"password": hunter2}');
    } catch (e) {
      err = Object.assign(e as SyntaxError, { statusCode: 400 });
    }
    const body = toProblem(err);
    expect(body).toMatchObject({ status: 400, code: 'MALFORMED_JSON' });
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });
});

describe('toProblem never leaks an unexpected error', () => {
  const secret = 'postgres://admin:hunter2@db';
  const causeSecret = 'ECONNREFUSED 10.0.0.7:5432';

  function expectSecret500(thrown: unknown) {
    const body = toProblem(thrown);
    expect(body).toEqual(GENERIC_500);
    const wire = JSON.stringify(body);
    expect(wire).not.toContain(secret);
    expect(wire).not.toContain(causeSecret);
    expect(wire).not.toMatch(/\bat /);
  }

  it.each([
    ['a plain Error', new Error(secret, { cause: new Error(causeSecret) })],
    ['a TypeError', new TypeError(secret)],
    ['a string', secret],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a Symbol', Symbol(secret)],
    ['a 5xx error', Object.assign(new Error(secret), { statusCode: 502 })],
    [
      'a Fastify 5xx error',
      Object.assign(new Error(secret), { statusCode: 503, code: 'FST_ERR_HANDLER_TIMEOUT' }),
    ],
    ['a statusCode of 200', Object.assign(new Error(secret), { statusCode: 200 })],
    ['a statusCode of 700', Object.assign(new Error(secret), { statusCode: 700 })],
    ['a statusCode of 404.5', Object.assign(new Error(secret), { statusCode: 404.5 })],
    ['a statusCode of "404"', Object.assign(new Error(secret), { statusCode: '404' })],
    ['a plain object', { message: secret, stack: `Error: ${secret}\n    at x (y.js:1:1)` }],
  ])('answers %s with a generic 500', (_name, thrown) => {
    expectSecret500(thrown);
  });

  it('shows only the message a KError author wrote for clients, not the cause', () => {
    const cause = new Error(causeSecret);
    const body = toProblem(internal('could not save the order', cause));
    expect(body).toEqual({ ...GENERIC_500, detail: 'could not save the order' });
    expect(JSON.stringify(body)).not.toContain(causeSecret);
    expect(JSON.stringify(body)).not.toMatch(/\bat /);
  });

  it('answers an error whose getters throw with a generic 500', () => {
    const err = new Error(secret);
    Object.defineProperty(err, 'statusCode', {
      get() {
        throw new Error('getter');
      },
    });
    expectSecret500(err);
  });

  it('answers a Proxy whose every trap throws with a generic 500', () => {
    const trap = () => {
      throw new Error(secret);
    };
    const hostile = new Proxy({}, { get: trap, has: trap, getPrototypeOf: trap, ownKeys: trap });
    expectSecret500(hostile);
  });

  it('answers a KError whose fields were tampered with at runtime with a generic 500', () => {
    const err = notFound(secret);
    Object.defineProperty(err, 'statusCode', { value: 200 });
    expectSecret500(err);
  });

  it('reads a frozen client error without trouble', () => {
    const err = Object.freeze(Object.assign(new Error('gone for good'), { statusCode: 410 }));
    expect(toProblem(err)).toMatchObject({ status: 410, code: 'GONE', detail: 'gone for good' });
    expect(toProblem(Object.freeze(conflict('taken')))).toMatchObject({
      status: 409,
      detail: 'taken',
    });
  });

  it('drops malformed issues from a KError instead of failing', () => {
    const err = unprocessable('bad', [
      { path: 'body.a', message: 'required' },
      { path: 1, message: null } as unknown as { path: string; message: string },
    ]);
    expect(toProblem(err).errors).toEqual([{ path: 'body.a', message: 'required' }]);
  });
});
