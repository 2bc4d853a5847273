import { describe, expect, it } from 'vitest';
import type { JsonSchema, OperationObject } from '../../src/docs/types.js';
import { Arbitraries } from '../../src/testing/arbitrary.js';
import { peers } from '../../src/testing/peers.js';
import { deriveRequests } from '../../src/testing/requests.js';

// What deriveRequests does with the values a test or an earlier response gives, and with the
// sampled values a schema refuses.

const { fc, newAjv } = await peers();
const ajv = newAjv();
const accepts = (schema: JsonSchema, value: unknown) => ajv.validate(schema, value) === true;
const base = { fc, arbitraries: new Arbitraries(fc, {}), runs: 20, seed: 3, invalid: false };

const op = {
  operationId: 'getShelf',
  responses: {},
  parameters: [
    { name: 'shelf', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'slot', in: 'path', required: true, schema: { type: 'string' } },
    // The generator does not know `not`: only the check keeps 0..4 out.
    {
      name: 'n',
      in: 'query',
      required: true,
      schema: { type: 'integer', minimum: 0, maximum: 9, not: { enum: [0, 1, 2, 3, 4] } },
    },
  ],
} as OperationObject;

const query = (url: string) => Number(new URL(url, 'http://x').searchParams.get('n'));

describe('deriveRequests with given values and a schema check', () => {
  it('sends only sampled values the schema accepts', () => {
    const unchecked = deriveRequests('/s/{shelf}/{slot}', 'GET', op, base);
    expect(unchecked.some((r) => query(r.url) < 5)).toBe(true);
    const checked = deriveRequests('/s/{shelf}/{slot}', 'GET', op, { ...base, accepts });
    expect(checked).toHaveLength(20);
    expect(checked.every((r) => query(r.url) >= 5)).toBe(true);
    const none = deriveRequests('/s/{shelf}/{slot}', 'GET', op, { ...base, accepts: () => false });
    expect(none).toEqual([]);
  });

  it('puts given values in, in turn, and says whether every path value was given', () => {
    const given = [
      { shelf: 'a', slot: '1' },
      { shelf: 'b', n: 7 },
    ];
    const rs = deriveRequests('/s/{shelf}/{slot}', 'GET', op, { ...base, runs: 4, given });
    expect(rs.map((r) => r.url.split('/').slice(0, 3).join('/'))).toEqual([
      '/s/a',
      '/s/b',
      '/s/a',
      '/s/b',
    ]);
    expect(rs.map((r) => r.known)).toEqual([true, false, true, false]);
    expect(rs[0]!.path).toEqual({ shelf: 'a', slot: '1' });
    expect(rs[0]!.url.startsWith('/s/a/1?')).toBe(true);
    expect(query(rs[1]!.url)).toBe(7);
  });
});
