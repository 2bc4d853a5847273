// BODY_READER: the extension point through which a feature reads a route's body itself.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BODY_READER, type BodyReader } from '../../src/extend/index.js';
import { type Middleware, post, unauthorized } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** A body schema whose reader takes the raw body as text and records what ran, in order. */
function textBody(steps: string[]) {
  const reader: BodyReader = {
    async read(request) {
      steps.push('read');
      let text = '';
      for await (const chunk of request.raw) text += String(chunk);
      request.body = text.toUpperCase();
    },
    mount(fastify: FastifyInstance, mount) {
      fastify.register(async (context) => {
        context.removeAllContentTypeParsers();
        context.addContentTypeParser('*', (_request, _payload, done) => done(null));
        steps.push('mounted');
        mount(context);
      });
    },
  };
  return {
    [BODY_READER]: reader,
    '~standard': {
      version: 1 as const,
      vendor: 'test',
      validate: (value: unknown) => ({ value: value as string }),
      jsonSchema: { input: () => ({ type: 'string' }), output: () => ({ type: 'string' }) },
    },
  };
}

describe('a body schema with a BODY_READER', () => {
  it('mounts its route through the reader and reads the body after the middleware', async () => {
    const steps: string[] = [];
    const { app } = testApp();
    const guard: Middleware = (c, next) => {
      steps.push('guard');
      if (c.request.headers.authorization !== 'ok') throw unauthorized();
      return next();
    };
    app.addRoutes(
      post('/shout', { body: textBody(steps), middleware: [guard] }, (c) => ({ said: c.body })),
    );
    const res = await app.inject({
      method: 'POST',
      url: '/shout',
      headers: { authorization: 'ok', 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.json()).toEqual({ said: 'HELLO' });
    expect(steps).toEqual(['mounted', 'guard', 'read']);

    steps.length = 0;
    const refused = await app.inject({
      method: 'POST',
      url: '/shout',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(refused.statusCode).toBe(401);
    expect(steps).toEqual(['guard']);
  });
});
