import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KError } from '../../src/errors/index.js';
import type { Context } from '../../src/routing/context.js';
import type { Schema } from '../../src/routing/types.js';
import { partsOf, validateInto } from '../../src/routing/validate.js';

/** A schema answering `result`, synchronously or (with `later`) as a promise. */
function fixed(result: StandardSchemaV1.Result<unknown>, later = false): Schema {
  return {
    '~standard': {
      version: 1,
      vendor: 'test-fixed',
      validate: () => (later ? Promise.resolve(result) : result),
    },
  } as Schema;
}

function context(parts: Record<string, unknown>): Context {
  return { params: {}, query: {}, headers: {}, cookies: {}, body: undefined, ...parts } as Context;
}

function caught(run: () => unknown): KError {
  try {
    run();
  } catch (err) {
    return err as KError;
  }
  throw new Error('expected a throw');
}

describe('validateInto', () => {
  it('validates synchronously, returning no promise, while every schema answers at once', () => {
    const c = context({ params: { id: '7' }, query: { limit: '5' } });
    const parts = partsOf({
      params: z.object({ id: z.coerce.number() }),
      query: z.object({ limit: z.coerce.number() }),
    });
    expect(validateInto(c, parts)).toBeUndefined();
    expect([c.params, c.query]).toEqual([{ id: 7 }, { limit: 5 }]);
  });

  it('throws one 422 listing exactly the issues of every failing part, paths led by the part', () => {
    const parts = partsOf({
      params: fixed({ issues: [{ message: 'is not a number', path: ['id'] }] }),
      body: fixed({
        issues: [
          { message: 'is required', path: [{ key: 'items' }, { key: 0 }, 'name'] },
          { message: 'is not an object' },
        ],
      }),
    });
    const err = caught(() => validateInto(context({}), parts));
    expect(err).toBeInstanceOf(KError);
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe('The request did not pass validation.');
    expect(err.errors).toEqual([
      { path: 'params.id', message: 'is not a number' },
      { path: 'body.items.0.name', message: 'is required' },
      { path: 'body', message: 'is not an object' },
    ]);
  });

  it('rejects the same way once a part validates asynchronously, keeping the issues found before it', async () => {
    const parts = partsOf({
      params: fixed({ issues: [{ message: 'bad id', path: ['id'] }] }),
      query: fixed({ value: { q: 'ok' } }, true),
      body: fixed({ issues: [{ message: 'bad body' }] }),
    });
    const c = context({});
    const err = await (validateInto(c, parts) as Promise<void>).catch((e: unknown) => e as KError);
    expect(err).toBeInstanceOf(KError);
    expect(err?.message).toBe('The request did not pass validation.');
    expect(err?.errors).toEqual([
      { path: 'params.id', message: 'bad id' },
      { path: 'body', message: 'bad body' },
    ]);
    expect(c.query).toEqual({ q: 'ok' });
  });

  it('gives every part but query and headers its value as it came, camelCase names included', () => {
    const c = context({ params: { userId: '7' }, body: { firstName: 'Ada' } });
    const parts = partsOf({
      params: z.object({ userId: z.string() }),
      body: z.object({ firstName: z.string() }),
    });
    validateInto(c, parts);
    expect([c.params, c.body]).toEqual([{ userId: '7' }, { firstName: 'Ada' }]);
  });
});

describe('partsOf', () => {
  it('refuses a body, params or cookies option that is not a Standard Schema value, naming the part', () => {
    for (const source of ['params', 'cookies', 'body'] as const) {
      for (const bad of [{ type: 'object' }, null, 'string']) {
        expect(() => partsOf({ [source]: bad as unknown as Schema })).toThrow(
          `the ${source} schema is not a Standard Schema value`,
        );
      }
    }
  });
});
