import { describe, expect, it } from 'vitest';
import { camelCase } from '../../src/db/columns.js';
import { kindOf } from '../../src/db/errors.js';
import { lineOf, toDatabaseError } from '../../src/db/failure.js';
import { operationOf } from '../../src/db/observe.js';
import { redactUrl, resolveDatabaseOptions } from '../../src/db/options.js';
import { sqlTag } from '../../src/db/sql.js';
import { Turns } from '../../src/db/turns.js';
import { parseArray, valueParsers } from '../../src/db/values.js';
import { notFound } from '../../src/errors/index.js';

describe('database options', () => {
  it('picks the engine from the url', () => {
    expect(resolveDatabaseOptions().engine).toEqual({ kind: 'pglite', dataDir: '.keelson/db' });
    expect(resolveDatabaseOptions({ url: '', dataDir: 'x' }).engine).toEqual({
      kind: 'pglite',
      dataDir: 'x',
    });
    expect(resolveDatabaseOptions({ url: 'memory://' }).engine).toEqual({
      kind: 'pglite',
      dataDir: undefined,
    });
    expect(resolveDatabaseOptions({ url: 'postgresql://h/db' }).engine).toEqual({
      kind: 'postgres',
      url: 'postgresql://h/db',
    });
  });

  it('applies the defaults', () => {
    const o = resolveDatabaseOptions();
    expect({ ...o, engine: undefined, constraints: undefined }).toEqual({
      engine: undefined,
      migrations: undefined,
      migrate: true,
      pool: { max: 10, idleTimeoutMs: 10_000, connectTimeoutMs: 5_000 },
      statementTimeoutMs: 0,
      slowQueryMs: 500,
      columns: 'as-is',
      int8: 'string',
      isolation: undefined,
      constraints: undefined,
      outboxPollMs: 1000,
    });
  });

  it.each([
    [
      { url: 'mysql://u:secret@h/db' },
      'url should start with postgres://, postgresql:// or memory://, instead got "mysql://u:***@h/db"',
    ],
    [{ pool: { max: 0 } }, 'pool.max should be an integer >= 1, instead got 0'],
    [
      { pool: { connectTimeoutMs: 1.5 } },
      'pool.connectTimeoutMs should be an integer >= 1, instead got 1.5',
    ],
    [{ slowQueryMs: -1 }, 'slowQueryMs should be an integer >= 0, instead got -1'],
    [
      { columns: 'snake' as never },
      'columns should be one of as-is, camelCase, instead got "snake"',
    ],
    [
      { int8: 'float' as never },
      'int8 should be one of string, number, bigint, instead got "float"',
    ],
    [
      { isolation: 'chaos' as never },
      'isolation should be one of read committed, repeatable read, serializable, instead got "chaos"',
    ],
  ])('names the bad field: %j', (options, message) => {
    expect(() => resolveDatabaseOptions(options)).toThrow(`database: ${message}`);
  });

  it('hides the password of a URL and nothing else', () => {
    expect(redactUrl('postgres://app:p%40ss@db:5432/x')).toBe('postgres://app:***@db:5432/x');
    expect(redactUrl('postgres://app@db/x')).toBe('postgres://app@db/x');
    expect(redactUrl('memory://')).toBe('memory://');
  });
});

describe('values', () => {
  it('reads array literals: nesting, quotes, escapes, NULL and dimensions', () => {
    expect(parseArray('{}', String)).toEqual([]);
    expect(parseArray('{1,NULL,3}', Number)).toEqual([1, null, 3]);
    expect(parseArray('{{1,2},{3,4}}', Number)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parseArray('{"a b","c\\"d","NULL",e}', String)).toEqual(['a b', 'c"d', 'NULL', 'e']);
    expect(parseArray('[0:1]={7,8}', Number)).toEqual([7, 8]);
    expect(parseArray('nothing', String)).toEqual([]);
  });

  it('reads timestamps with and without offsets, infinity and BC', () => {
    const ts = valueParsers('string')[1184]!;
    expect(ts('2024-01-02 03:04:05+00')).toEqual(new Date('2024-01-02T03:04:05Z'));
    expect(ts('2024-01-02 03:04:05.5-03:30')).toEqual(new Date('2024-01-02T06:34:05.5Z'));
    expect(ts('2024-01-02 03:04:05')).toEqual(new Date('2024-01-02T03:04:05Z'));
    expect(ts('infinity')).toBe('infinity');
    expect(ts('-infinity')).toBe('-infinity');
    expect((ts('0044-03-15 00:00:00+00 BC') as Date).getUTCFullYear()).toBe(-43);
  });

  it('reads int8 in each mode and bytea from hex', () => {
    expect(valueParsers('string')[20]!('42')).toBe('42');
    expect(valueParsers('number')[20]!('42')).toBe(42);
    expect(valueParsers('bigint')[20]!('9223372036854775807')).toBe(9223372036854775807n);
    expect(() => valueParsers('number')[20]!('9007199254740993')).toThrow(RangeError);
    expect(valueParsers('string')[17]!('\\x0aff')).toEqual(Buffer.from([10, 255]));
  });
});

describe('errors', () => {
  it.each([
    ['23505', 'unique'],
    ['23503', 'foreign_key'],
    ['23502', 'not_null'],
    ['23514', 'check'],
    ['22P02', 'invalid_input'],
    ['22003', 'invalid_input'],
    ['57014', 'timeout'],
    ['40001', 'serialization'],
    ['40P01', 'serialization'],
    ['08006', 'unavailable'],
    ['57P01', 'unavailable'],
    ['53300', 'unavailable'],
    ['ECONNREFUSED', 'unavailable'],
    ['KEELSON_DB_POOL_TIMEOUT', 'unavailable'],
    ['42601', 'other'],
    [undefined, 'other'],
  ])('maps %s to %s', (code, kind) => {
    expect(kindOf(code)).toBe(kind);
  });

  it('treats a lost connection without a code as unavailable, and passes a KError through', () => {
    const lost = toDatabaseError(new Error('Connection terminated unexpectedly'), 'select 1');
    expect(lost).toMatchObject({ kind: 'unavailable', statusCode: 503 });
    const kept = notFound('x');
    expect(toDatabaseError(kept, 'select 1')).toBe(kept);
    const odd = toDatabaseError('a string', 'select  1\n  from t');
    expect((odd.cause as Error).message).toBe('database error: a string; query: select 1 from t');
  });

  it('finds the line of an error position', () => {
    expect(lineOf('a\nb\nc', 5)).toBe(3);
    expect(lineOf('abc', 1)).toBe(1);
    expect(lineOf('abc', undefined)).toBeUndefined();
    expect(lineOf('abc', 0)).toBeUndefined();
  });
});

describe('small parts', () => {
  it('names the operation of a statement for metrics', () => {
    expect(operationOf('  SELECT 1')).toBe('select');
    expect(operationOf('-- note\ninsert into t values (1)')).toBe('insert');
    expect(operationOf('update t set a = 1')).toBe('update');
    expect(operationOf('delete from t')).toBe('delete');
    expect(operationOf('with x as (select 1) select * from x')).toBe('other');
  });

  it('turns snake_case into camelCase', () => {
    expect(camelCase('created_at')).toBe('createdAt');
    expect(camelCase('a__b_c1')).toBe('aBC1');
    expect(camelCase('id')).toBe('id');
  });

  it('joins and quotes without running anything', () => {
    const sql = sqlTag(async () => []);
    expect(sql`a ${sql.join([1, sql`b ${2}`, 3], sql` or `)} z`.compile()).toEqual({
      text: 'a $1 or b $2 or $3 z',
      params: [1, 2, 3],
    });
    expect(sql.join([]).compile()).toEqual({ text: '', params: [] });
    expect(() => sql.id()).toThrow('names must be non-empty strings');
    expect(() => sql.id('')).toThrow('names must be non-empty strings');
  });

  it('takes turns first come, first served, and gives up after the timeout', async () => {
    const turns = new Turns();
    const first = await turns.take(100);
    const order: number[] = [];
    const second = turns.take(1000).then((done) => {
      order.push(2);
      done?.();
    });
    const late = await turns.take(10);
    expect(late).toBeUndefined();
    order.push(1);
    first!();
    first!();
    await second;
    expect(order).toEqual([1, 2]);
    const again = await turns.take(10);
    expect(again).toBeTypeOf('function');
  });
});
