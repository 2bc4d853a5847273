import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, KError, pagination } from '../../src/index.js';
import { checkTimeout, timeoutError } from '../../src/routing/timeout.js';
import { testApp } from '../app/helpers.js';

// The option checks and boundaries of route timeouts and pagination, each named.

describe('route timeouts', () => {
  it('take 0 to 2 147 483 647 ms, and refuse the rest naming where', () => {
    for (const ms of [undefined, 0, 2_147_483_647])
      expect(() => checkTimeout(ms, 'GET /x')).not.toThrow();
    for (const ms of [-1, 2_147_483_648, 1.5, '5']) {
      expect(() => checkTimeout(ms, 'GET /x')).toThrow(
        new TypeError(
          `GET /x: timeoutMs must be a whole number of milliseconds (0 for none), got ${String(ms)}`,
        ),
      );
    }
  });

  it('answer 504 saying how long the request took', () => {
    expect(timeoutError(250)).toMatchObject({
      statusCode: 504,
      code: 'TIMEOUT',
      message: 'The request took longer than 250 ms.',
    });
  });
});

type Result = {
  value?: unknown;
  issues?: readonly { message: string; path?: readonly unknown[] }[];
};
const run = (schema: ReturnType<typeof pagination>, query: unknown) =>
  schema['~standard'].validate(query) as Result;

describe('pagination', () => {
  it('takes limits from 1 to maxLimit and refuses the others, saying the range', () => {
    const schema = pagination({ maxLimit: 50 });
    expect(run(schema, { limit: '1' }).value).toEqual({ page: 1, limit: 1, offset: 0 });
    expect(run(schema, { limit: '50' }).value).toEqual({ page: 1, limit: 50, offset: 0 });
    for (const limit of ['0', '51']) {
      expect(run(schema, { limit }).issues).toEqual([
        { message: 'must be a whole number from 1 to 50', path: ['limit'] },
      ]);
    }
  });

  it('takes pages from 1 up, saying so for page 0', () => {
    const schema = pagination();
    expect(run(schema, { page: '1' }).value).toMatchObject({ page: 1 });
    expect(run(schema, { page: 3, limit: 10 }).value).toEqual({ page: 3, limit: 10, offset: 20 });
    expect(run(schema, { page: '0' }).issues).toEqual([
      { message: 'must be a whole number at least 1', path: ['page'] },
    ]);
  });

  it('refuses numbers written other than as plain digits', () => {
    for (const page of ['1e3', ' 2', '0x10', '2.0', 1.5]) {
      expect(run(pagination(), { page }).issues?.[0]?.path).toEqual(['page']);
    }
  });

  it('refuses a maxLimit or defaultLimit out of range, and takes the edges', () => {
    expect(() => pagination({ maxLimit: 1, defaultLimit: 1 })).not.toThrow();
    expect(() => pagination({ maxLimit: 30, defaultLimit: 30 })).not.toThrow();
    for (const maxLimit of [0, 2.5]) {
      expect(() => pagination({ maxLimit })).toThrow(
        new TypeError(`pagination: maxLimit must be a whole number of at least 1, got ${maxLimit}`),
      );
    }
    for (const defaultLimit of [0, 31]) {
      expect(() => pagination({ maxLimit: 30, defaultLimit })).toThrow(
        new TypeError(
          `pagination: defaultLimit must be a whole number from 1 to maxLimit (30), got ${defaultLimit}`,
        ),
      );
    }
  });

  it('describes page and limit in its JSON Schema, both sides alike', () => {
    const std = pagination({ maxLimit: 40, defaultLimit: 10 })['~standard'];
    expect(std.vendor).toBe('keelson');
    const expected = {
      type: 'object',
      properties: {
        page: { type: 'integer', minimum: 1, default: 1, description: 'The page, from 1.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 40,
          default: 10,
          description: 'Items per page.',
        },
      },
    };
    expect(std.jsonSchema.input({ target: 'draft-2020-12' })).toEqual(expected);
    expect(std.jsonSchema.output({ target: 'draft-2020-12' })).toEqual(expected);
  });
});

describe('pagination with the route’s other query schema', () => {
  const other = (schema: StandardSchemaV1) => pagination({}, schema)['~standard'];
  const Q = z.object({ q: z.string() });

  it('refuses when only the other schema does, or only the page does, or both', async () => {
    const std = other(Q);
    expect(await std.validate({ page: '1' })).toEqual({
      issues: [expect.objectContaining({ path: ['q'] })],
    });
    expect(await std.validate({ q: 'x', page: '0' })).toEqual({
      issues: [expect.objectContaining({ path: ['page'] })],
    });
    const both = (await std.validate({ page: '0' })) as Result;
    expect(both.issues?.map((i) => i.path)).toEqual([['page'], ['q']]);
  });

  it('gives the other schema its fields without page and limit, and a missing query as empty', async () => {
    const strict = other(z.strictObject({ q: z.string().optional() }));
    expect(await strict.validate({ q: 'x', page: '2', limit: '5' })).toEqual({
      value: { q: 'x', page: 2, limit: 5, offset: 5 },
    });
    expect(await strict.validate(undefined)).toEqual({ value: { page: 1, limit: 20, offset: 0 } });
  });

  it('waits for an asynchronous other schema', async () => {
    const slow = z.object({ q: z.string().refine(async (v) => v !== 'no', 'not no') });
    const std = other(slow);
    const pending = std.validate({ q: 'yes' });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ value: { q: 'yes', page: 1, limit: 20, offset: 0 } });
    expect(((await std.validate({ q: 'no' })) as Result).issues?.[0]?.message).toBe('not no');
  });

  it('documents the other schema’s properties and required ones beside page and limit', () => {
    const std = other(
      z.object({ q: z.string(), sort: z.string().optional() }),
    ) as unknown as StandardJSONSchemaV1['~standard'];
    for (const side of ['input', 'output'] as const) {
      const json = std.jsonSchema[side]({ target: 'draft-2020-12' }) as {
        properties: Record<string, unknown>;
        required?: string[];
      };
      expect(Object.keys(json.properties).sort()).toEqual(['limit', 'page', 'q', 'sort']);
      expect(json.required).toEqual(['q']);
    }
    const optional = other(
      z.object({ sort: z.string().optional() }),
    ) as unknown as StandardJSONSchemaV1['~standard'];
    expect(optional.jsonSchema.input({ target: 'draft-2020-12' })).not.toHaveProperty('required');
  });

  it('cannot document another schema with no JSON Schema side', () => {
    const bare: StandardSchemaV1 = {
      '~standard': { version: 1, vendor: 'x', validate: (value) => ({ value }) },
    };
    const std = other(bare) as unknown as StandardJSONSchemaV1['~standard'];
    expect(() => std.jsonSchema.input({ target: 'draft-2020-12' })).toThrow(
      'pagination: the other query schema has no JSON Schema side',
    );
  });
});

describe('a route with a timeout', () => {
  it('answers a handler’s own failure before the timeout as that failure', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/fails', { timeoutMs: 5_000 }, async () => {
        await Promise.resolve();
        throw new KError({ code: 'TEAPOT', statusCode: 418, message: 'short and stout' });
      }),
      get('/throws', { timeoutMs: 5_000 }, () => {
        throw new KError({ code: 'GONE', statusCode: 410, message: 'gone' });
      }),
    );
    const res = await app.inject('/fails');
    expect(res.statusCode).toBe(418);
    expect(res.json().code).toBe('TEAPOT');
    expect((await app.inject('/throws')).statusCode).toBe(410);
  });

  it('leaves alone a handler that answered itself and works on past the timeout', async () => {
    const { app } = testApp();
    let abortedLate: boolean | undefined;
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    app.addRoutes(
      get('/early', { timeoutMs: 20 }, async (c) => {
        c.reply.send({ early: true });
        await new Promise((r) => setTimeout(r, 60));
        abortedLate = c.signal.aborted;
        finished();
        return c.reply;
      }),
    );
    const res = await app.inject('/early');
    expect(res.json()).toEqual({ early: true });
    await done;
    expect(abortedLate).toBe(false);
  });
});
