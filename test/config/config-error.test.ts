import { describe, expect, it } from 'vitest';
import { ConfigError, renderValue } from '../../src/config/config-error.js';

describe('ConfigError from environment issues', () => {
  it('counts one variable in the singular and lists every name in field', () => {
    const one = new ConfigError([{ variable: 'PORT', reason: 'must be a number' }]);
    expect(one.message).toBe(
      'invalid config: 1 environment variable missing or invalid:\n  PORT: must be a number',
    );
    expect(one.field).toBe('PORT');
    expect(one.value).toBeUndefined();

    const two = new ConfigError([
      { variable: 'PORT', reason: 'must be a number' },
      { variable: 'DATABASE_URL', reason: 'is missing' },
    ]);
    expect(two.message).toMatch(/^invalid config: 2 environment variables missing or invalid:\n/);
    expect(two.field).toBe('PORT, DATABASE_URL');
    expect(two.issues).toHaveLength(2);
  });

  it('keeps the field, value and no issues for a KConfig error', () => {
    const err = new ConfigError('port', 'an integer in 0..65535', 70000);
    expect(err.message).toBe('invalid config: port must be an integer in 0..65535, got 70000');
    expect([err.field, err.value, err.issues, err.code]).toEqual([
      'port',
      70000,
      [],
      'CONFIG_INVALID',
    ]);
  });
});

describe('renderValue', () => {
  it('cuts a long string at 120 characters and a long rendering to 120 with a mark', () => {
    expect(renderValue('x'.repeat(120))).toBe(`"${'x'.repeat(118)}…`);
    const rendered = renderValue('x'.repeat(500));
    expect(rendered).toHaveLength(120);
    expect(rendered.endsWith('…')).toBe(true);
    // A rendering of exactly 120 characters is left whole.
    const exact = 'y'.repeat(118);
    expect(renderValue(exact)).toBe(`"${exact}"`);
  });

  it('renders every primitive', () => {
    expect(renderValue(undefined)).toBe('undefined');
    expect(renderValue(null)).toBe('null');
    expect(renderValue(-0)).toBe('-0');
    expect(renderValue(10n)).toBe('10n');
    expect(renderValue(true)).toBe('true');
    expect(renderValue(Symbol('s'))).toBe('Symbol(s)');
    expect(renderValue(function named() {})).toBe('[Function named]');
  });

  it('shows at most five items or keys, two levels deep, and marks a cycle', () => {
    expect(renderValue([1, 2, 3, 4, 5])).toBe('[1, 2, 3, 4, 5]');
    expect(renderValue([1, 2, 3, 4, 5, 6])).toBe('[1, 2, 3, 4, 5, …]');
    expect(renderValue({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toBe(
      '{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}',
    );
    expect(renderValue({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 })).toBe(
      '{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, …}',
    );
    expect(renderValue([[[1]]])).toBe('[[[…]]]');
    expect(renderValue({ a: { b: { c: 1 } } })).toBe('{"a": {"b": {…}}}');
    expect(renderValue([{ a: [1] }])).toBe('[{"a": […]}]');
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(renderValue(cyclic)).toBe('{"name": "x", "self": [Circular]}');
    // The same object twice side by side is no cycle.
    const shared = { v: 1 };
    expect(renderValue([shared, shared])).toBe('[{"v": 1}, {"v": 1}]');
  });

  it('names a class instance, and no prototype or a nameless constructor by nothing', () => {
    class Point {
      x = 1;
    }
    expect(renderValue(new Point())).toBe('Point {"x": 1}');
    expect(renderValue(Object.assign(Object.create(null), { x: 1 }))).toBe('{"x": 1}');
    const odd = Object.create({ constructor: { name: 42 } }) as object;
    expect(renderValue(odd)).toBe('{}');
    const noCtor = Object.create({ constructor: undefined }) as object;
    expect(renderValue(noCtor)).toBe('{}');
    expect(renderValue(new Map())).toBe('Map {}');
  });

  it('never throws: a getter that throws makes the value unprintable', () => {
    const hostile = {
      get boom(): never {
        throw new Error('no');
      },
    };
    expect(renderValue(hostile)).toBe('<unprintable value>');
  });
});
