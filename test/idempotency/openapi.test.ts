import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeMiddleware } from '../../src/extend/index.js';
import { idempotency, memoryIdempotencyStore } from '../../src/idempotency/index.js';
import { App, del, get, type Middleware, patch, post, put } from '../../src/index.js';

function app() {
  return new App({ serviceName: 'docs', env: 'development' } as never);
}

const store = memoryIdempotencyStore();

describe('idempotency in the OpenAPI document', () => {
  it('adds the Idempotency-Key header, 400, 409 and 422 to POST, PATCH and DELETE only', async () => {
    const a = app();
    a.group('/orders', idempotency({ store })).addRoutes(
      post('/', () => 'x'),
      patch('/:id', () => 'x'),
      del('/:id', () => 'x'),
      put('/:id', () => 'x'),
      get('/', () => 'x'),
    );
    const paths = (await a.openapi()).paths;
    for (const op of [
      paths['/orders']!.post!,
      paths['/orders/{id}']!.patch!,
      paths['/orders/{id}']!.delete!,
    ]) {
      expect(op.parameters?.find((p) => p.in === 'header')).toMatchObject({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
      expect(op.responses['400']!.description).toBe('A malformed Idempotency-Key');
      expect(op.responses['409']!.headers).toHaveProperty('Retry-After');
      expect(op.responses['422']!.content).toHaveProperty(['application/problem+json']);
    }
    for (const op of [paths['/orders']!.get!, paths['/orders/{id}']!.put!]) {
      expect(op.parameters?.some((p) => p.name === 'Idempotency-Key')).not.toBe(true);
      expect(Object.keys(op.responses)).not.toContain('409');
    }
  });

  it('marks the header required when `required` is set', async () => {
    const a = app();
    a.addRoutes(post('/pay', { middleware: [idempotency({ store, required: true })] }, () => 'x'));
    const op = (await a.openapi()).paths['/pay']!.post!;
    expect(op.parameters).toEqual([
      expect.objectContaining({ name: 'Idempotency-Key', required: true }),
    ]);
    expect(op.responses['400']!.description).toBe('No Idempotency-Key, or a malformed one');
  });

  it('keeps a header the route declares itself, and the inner middleware’s for one name', async () => {
    const a = app();
    const outer: Middleware = describeMiddleware((_c, next) => next(), {
      requestHeaders: { 'X-Tenant': { description: 'outer' } },
    });
    const inner: Middleware = describeMiddleware((_c, next) => next(), {
      requestHeaders: { 'x-tenant': { description: 'inner', required: true } },
    });
    a.addRoutes(
      post('/both', { middleware: [outer, inner] }, () => 'x'),
      post(
        '/own',
        {
          middleware: [idempotency({ store })],
          headers: z.object({ 'idempotency-key': z.uuid() }),
        },
        () => 'x',
      ),
    );
    const paths = (await a.openapi()).paths;
    expect(paths['/both']!.post!.parameters).toEqual([
      {
        name: 'x-tenant',
        in: 'header',
        required: true,
        description: 'inner',
        schema: { type: 'string' },
      },
    ]);
    const own = paths['/own']!.post!.parameters!;
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({
      name: 'idempotency-key',
      required: true,
      schema: { format: 'uuid' },
    });
  });
});
