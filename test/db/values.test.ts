import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import type { KError } from '../../src/errors/index.js';
import { engines } from './engines.js';

// One result shape: the same query gives the same JavaScript values on both engines.
const TABLE: ReadonlyArray<readonly [string, string, unknown]> = [
  ['int2', `32767::int2`, 32767],
  ['int4', `(-2147483648)::int4`, -2147483648],
  ['int8', `9223372036854775807::int8`, '9223372036854775807'],
  ['count(*)', `(select count(*) from generate_series(1, 3))`, '3'],
  ['numeric', `12345678901234567890.0001::numeric`, '12345678901234567890.0001'],
  ['float4', `1.5::float4`, 1.5],
  ['float8', `'NaN'::float8`, Number.NaN],
  ['bool', `true`, true],
  ['text', `'héllo'::text`, 'héllo'],
  ['uuid', `'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid`, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
  ['date', `'2024-02-29'::date`, '2024-02-29'],
  ['timestamp', `'2024-02-29 12:34:56.789'::timestamp`, new Date('2024-02-29T12:34:56.789Z')],
  [
    'timestamptz',
    `'2024-02-29 12:34:56.789+02'::timestamptz`,
    new Date('2024-02-29T10:34:56.789Z'),
  ],
  ['interval', `'1 day 02:03:04'::interval`, '1 day 02:03:04'],
  ['json', `'{"a":[1,2]}'::json`, { a: [1, 2] }],
  ['jsonb', `'{"b":null}'::jsonb`, { b: null }],
  ['bytea', `'\\x00ff10'::bytea`, Buffer.from([0, 255, 16])],
  ['int4[]', `array[1, null, 3]::int4[]`, [1, null, 3]],
  ['int8[]', `array[1, 9007199254740993]::int8[]`, ['1', '9007199254740993']],
  ['text[]', `array['a', 'b c', 'd"e']::text[]`, ['a', 'b c', 'd"e']],
  [
    'int4[][]',
    `array[[1, 2], [3, 4]]::int4[]`,
    [
      [1, 2],
      [3, 4],
    ],
  ],
  ['null', `null::int4`, null],
];

describe.each(engines)('values on $name', (engine) => {
  let db: Database;
  let camel: Database;
  let numbers: Database;
  beforeAll(async () => {
    db = await engine.fresh();
    camel = await engine.fresh({ columns: 'camelCase' });
    numbers = await engine.fresh({ int8: 'number' });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([db.close(), camel.close(), numbers.close()]);
  });

  it.each(TABLE)('reads %s the same on both engines', async (_, expr, expected) => {
    const [row] = await db.query<{ v: unknown }>(`select ${expr} as v`);
    expect(row!.v).toEqual(expected);
  });

  it('gives bytea as a Buffer and timestamps as Dates', async () => {
    const [row] = await db.query<{ b: unknown; t: unknown }>(
      `select '\\x01'::bytea as b, now() as t`,
    );
    expect(Buffer.isBuffer(row!.b)).toBe(true);
    expect(row!.t).toBeInstanceOf(Date);
  });

  it('takes JavaScript values as parameters and gives them back', async () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    const [row] = await db.query<Record<string, unknown>>(
      'select $1::int4 as i, $2::text as t, $3::timestamptz as d, $4::jsonb as j, $5::int4[] as a, $6::bool as b',
      [7, 'x', at, JSON.stringify({ k: [1] }), [1, 2], false],
    );
    expect(row).toEqual({ i: 7, t: 'x', d: at, j: { k: [1] }, a: [1, 2], b: false });
  });

  it("maps snake_case columns to camelCase with columns: 'camelCase'", async () => {
    expect(await camel.sql`select 1 as created_at, 2 as id, 3 as "already_Camel_x"`).toEqual([
      { createdAt: 1, id: 2, alreadyCamelX: 3 },
    ]);
  });

  it("gives int8 as a number with int8: 'number', and refuses one it cannot hold exactly", async () => {
    expect(await numbers.sql`select count(*) as n from generate_series(1, 4)`).toEqual([{ n: 4 }]);
    const err = await numbers.sql`select 9007199254740993::int8 as n`.catch((e: unknown) => e);
    expect((err as KError).statusCode).toBe(500);
    expect(String((err as KError).cause)).toMatch(/beyond Number.MAX_SAFE_INTEGER/);
  });
});
