// The OpenAPI document lists, per error response, the codes Keelson answers there; a status a
// service may answer with codes of its own is left open.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiKey, authorize } from '../../src/auth/index.js';
import { describeMiddleware } from '../../src/extend/index.js';
import {
  file,
  get,
  idempotency,
  memoryIdempotencyStore,
  multipart,
  post,
  rateLimit,
} from '../../src/index.js';
import { testApp } from '../app/helpers.js';

const PROBLEM = { $ref: '#/components/schemas/Problem' };
const narrowed = (...codes: string[]) => ({
  'application/problem+json': {
    schema: {
      allOf: [PROBLEM, { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
    },
  },
});
const open = { 'application/problem+json': { schema: PROBLEM } };

const guard = apiKey({ verify: (key) => (key === 'k' ? { name: 'a' } : undefined) });
const Body = z.object({ n: z.number() });

async function responsesOf(...routes: Parameters<ReturnType<typeof testApp>['app']['addRoutes']>) {
  const { app } = testApp();
  app.addRoutes(...routes);
  const doc = await app.openapi();
  return (path: string, method: string, status: number | string) =>
    (doc.paths[path] as Record<string, { responses: Record<string, { content?: unknown }> }>)[
      method
    ]?.responses[String(status)]?.content;
}

describe('the codes of each error response', () => {
  it('narrows a body route’s 400, 413, 415 and 422, and leaves its 500 and the ranges open', async () => {
    const of = await responsesOf(post('/things', { body: Body }, (c) => c.body));
    expect(of('/things', 'post', 400)).toEqual(
      narrowed('BAD_REQUEST', 'MALFORMED_JSON', 'INVALID_CONTENT_LENGTH'),
    );
    expect(of('/things', 'post', 413)).toEqual(narrowed('PAYLOAD_TOO_LARGE'));
    expect(of('/things', 'post', 415)).toEqual(narrowed('UNSUPPORTED_MEDIA_TYPE'));
    expect(of('/things', 'post', 422)).toEqual(narrowed('VALIDATION_FAILED'));
    for (const status of [500, '4XX', '5XX']) expect(of('/things', 'post', status)).toEqual(open);
  });

  it('leaves open a status the route lists in errors: its codes are the service’s', async () => {
    const of = await responsesOf(post('/things', { body: Body, errors: [422, 409] }, () => 1));
    expect(of('/things', 'post', 422)).toEqual(open);
    expect(of('/things', 'post', 409)).toEqual(open);
    expect(of('/things', 'post', 415)).toEqual(narrowed('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('narrows a guard’s 401, authorize()’s 403 and a rate limit’s 429', async () => {
    const of = await responsesOf(
      get('/admin', { middleware: [guard, authorize(() => true)] }, () => 1),
      get('/limited', { middleware: [rateLimit({ max: 1, windowMs: 1000 })] }, () => 1),
    );
    expect(of('/admin', 'get', 401)).toEqual(narrowed('UNAUTHORIZED'));
    expect(of('/admin', 'get', 403)).toEqual(narrowed('FORBIDDEN'));
    expect(of('/limited', 'get', 429)).toEqual(narrowed('TOO_MANY_REQUESTS'));
  });

  it('leaves open the 401 of a security requirement that no guard of Keelson’s enforces', async () => {
    const { app } = testApp({
      docs: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    });
    app.addRoutes(get('/private', { security: [{ bearer: [] }] }, () => 1));
    const doc = await app.openapi();
    expect(doc.paths['/private']?.get?.responses['401']?.content).toEqual(open);
  });

  it('merges the codes of the middleware and the framework for one status', async () => {
    const once = idempotency({ store: memoryIdempotencyStore() });
    const of = await responsesOf(post('/pay', { body: Body, middleware: [once] }, () => 1));
    expect(of('/pay', 'post', 409)).toEqual(narrowed('IDEMPOTENCY_KEY_IN_USE'));
    expect(of('/pay', 'post', 422)).toEqual(
      narrowed('VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REUSED'),
    );
    expect(of('/pay', 'post', 400)).toEqual(
      narrowed('BAD_REQUEST', 'MALFORMED_JSON', 'INVALID_CONTENT_LENGTH'),
    );
  });

  it('keeps a middleware’s own codes, and leaves a status open when one middleware did not say', async () => {
    const seats = describeMiddleware(async (_c, next) => next(), {
      responses: {
        409: { codes: ['SEAT_TAKEN'] },
        410: { codes: [] },
        429: { description: 'Slow down' },
      },
    });
    const limit = rateLimit({ max: 1, windowMs: 1000 });
    const of = await responsesOf(get('/seat', { middleware: [seats, limit] }, () => 1));
    expect(of('/seat', 'get', 409)).toEqual(narrowed('SEAT_TAKEN'));
    expect(of('/seat', 'get', 429)).toEqual(open);
    expect(of('/seat', 'get', 410)).toEqual(open); // an empty list says nothing
  });

  it('adds MALFORMED_MULTIPART to an upload route’s 400', async () => {
    const of = await responsesOf(post('/up', { body: multipart({ f: file() }) }, () => 1));
    expect(of('/up', 'post', 400)).toEqual(
      narrowed('BAD_REQUEST', 'MALFORMED_JSON', 'INVALID_CONTENT_LENGTH', 'MALFORMED_MULTIPART'),
    );
  });

  it('narrows nothing when the app shapes its error bodies itself', async () => {
    const { app } = testApp({ errors: { body: (p) => ({ message: p.detail }) } });
    app.addRoutes(post('/things', { body: Body }, (c) => c.body));
    const doc = await app.openapi();
    expect(JSON.stringify(doc)).not.toContain('"enum":["VALIDATION_FAILED"]');
  });
});
