import { inspect, format as utilFormat } from 'node:util';
import { describe, expect, it } from 'vitest';
import { escapeText } from '../../src/logger/escape.js';
import { formatMessage } from '../../src/logger/format.js';
import { jsonEncoder } from '../../src/logger/json.js';

function format(first: unknown, ...args: unknown[]): string {
  return formatMessage(first, args);
}

describe('formatMessage', () => {
  it.each<[string, unknown[]]>([
    ['%s with a string', ['user %s', 'alice']],
    ['%s with a number', ['%s', 42]],
    ['%s with negative zero', ['%s', -0]],
    ['%s with a bigint', ['%s', 10n]],
    ['%s with a symbol', ['%s', Symbol('q')]],
    ['%s with null and undefined', ['%s %s', null, undefined]],
    ['%s with a plain object', ['%s', { a: 1, b: { c: 1 } }]],
    ['%s with an array', ['%s', [1, [2, [3]]]]],
    ['%s with a Date', ['%s', new Date(0)]],
    ['%s with an own toString', ['%s', { toString: () => 'custom' }]],
    ['%s with a Buffer', ['%s', Buffer.from('hi')]],
    ['%s with a function', ['%s', function named() {}]],
    ['%d with a number', ['%d things', 42]],
    ['%d with a numeric string', ['%d', '42']],
    ['%d with a fraction', ['%d', 1.5]],
    ['%d with negative zero', ['%d', -0]],
    ['%d with a bigint', ['%d', 10n]],
    ['%d with a symbol', ['%d', Symbol('q')]],
    ['%d with null', ['%d', null]],
    ['%i with a string', ['%i', '42.9px']],
    ['%i with a fraction', ['%i', -1.9]],
    ['%i with a bigint', ['%i', 10n]],
    ['%i with a symbol', ['%i', Symbol('q')]],
    ['%f with a string', ['%f', '1.5e3x']],
    ['%f with a symbol', ['%f', Symbol('q')]],
    ['%j with an object', ['%j', { a: [1, 'x'] }]],
    ['%j with a string', ['%j', 'x']],
    ['%j with undefined', ['%j', undefined]],
    ['%o with an array', ['%o', [1]]],
    ['%o with an object', ['%o', { a: 1 }]],
    ['%O with an object', ['%O', { a: { b: 1 } }]],
    ['%c, which prints nothing', ['%cgreen%s', 'color: green', '!']],
    ['%% with arguments', ['100%% %s', 'done']],
    ['%% with arguments used up', ['%s %%', 'a']],
    ['a lone % at the end', ['50% %s', 'x']],
    ['an unknown verb', ['%x %s', 'a']],
    ['fewer arguments than verbs', ['%s and %s', 'a']],
    ['more arguments than verbs', ['%s', 'a', 'b', 1, { c: 2 }]],
    ['no verbs but arguments', ['hello', 'x', { a: 1 }]],
    ['an empty format', ['', 'a']],
    ['a number first', [42, 'x']],
    ['an object first', [{ a: 1 }, 'x']],
    ['null first', [null]],
    ['undefined first', [undefined]],
    ['a symbol first', [Symbol('s')]],
    ['a bigint first', [10n, 'n']],
  ])('formats %s like util.format', (_name, [first, ...args]) => {
    expect(formatMessage(first, args)).toBe(utilFormat(first, ...args));
  });

  it('returns a string without arguments as it is, % signs included', () => {
    expect(format('100%% sure, %s')).toBe('100%% sure, %s');
  });

  it('prints an Error first argument with its stack', () => {
    const error = new Error('boom');
    expect(format(error)).toBe(inspect(error));
    expect(format(error)).toContain('Error: boom\n    at ');
  });

  it('keeps objects on one line however large they are', () => {
    const large = { list: Array.from({ length: 40 }, (_, i) => i), nested: { a: { b: 1 } } };
    for (const verb of ['%o', '%O', '%s', '%j']) expect(format(verb, large)).not.toContain('\n');
    expect(format('x', large)).not.toContain('\n');
    expect(format(large)).not.toContain('\n');
  });

  describe('with a circular object', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;

    it('prints [Circular] for %j', () => {
      expect(format('%j', circular)).toBe('[Circular]');
    });

    it('marks the cycle for %o, %O and %s', () => {
      expect(format('%o', circular)).toContain('[Circular *1]');
      expect(format('%O', circular)).toContain('[Circular *1]');
      expect(format('%s', circular)).toBe("<ref *1> { name: 'loop', self: [Circular *1] }");
    });

    it('marks the cycle as an extra argument and as the first argument', () => {
      expect(format('x', circular)).toBe("x <ref *1> { name: 'loop', self: [Circular *1] }");
      expect(format(circular)).toBe("<ref *1> { name: 'loop', self: [Circular *1] }");
    });
  });

  describe('with values that throw when converted', () => {
    const throwingToString = {
      toString(): string {
        throw new Error('toString failed');
      },
    };
    const throwingValueOf = {
      valueOf(): number {
        throw new Error('valueOf failed');
      },
    };
    const throwingGetter = {
      get secret(): string {
        throw new Error('getter failed');
      },
    };
    const throwingToJSON = {
      toJSON(): unknown {
        throw new Error('toJSON failed');
      },
    };
    const throwingTag = {
      get [Symbol.toStringTag](): string {
        throw new Error('tag failed');
      },
    };
    const throwingInspect = {
      [inspect.custom](): string {
        throw new Error('inspect failed');
      },
    };
    const nullPrototype = Object.create(null) as object;
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const trapping = new Proxy(
      {},
      {
        get(): never {
          throw new Error('get trap');
        },
        ownKeys(): never {
          throw new Error('ownKeys trap');
        },
        getPrototypeOf(): never {
          throw new Error('getPrototypeOf trap');
        },
      },
    );
    const nasty: Record<string, unknown> = {
      throwingToString,
      throwingValueOf,
      throwingGetter,
      throwingToJSON,
      throwingTag,
      throwingInspect,
      nullPrototype,
      revokedProxy: revoked.proxy,
      trappingProxy: trapping,
      bigint: 10n,
      nestedBigint: { a: 1n },
      symbol: Symbol('s'),
    };

    it.each(Object.keys(nasty))('never throws for %s, whatever the verb or position', (name) => {
      const value = nasty[name];
      for (const verb of ['%s', '%d', '%i', '%f', '%j', '%o', '%O', '%c', '%%']) {
        expect(typeof format(`${verb}!`, value)).toBe('string');
      }
      expect(typeof format('extra', value)).toBe('string');
      expect(typeof format(value)).toBe('string');
      expect(typeof format(value, value)).toBe('string');
    });

    it('inspects an object whose toString throws for %s', () => {
      expect(format('%s', throwingToString)).toBe('{ toString: [Function: toString] }');
    });

    it('prints NaN for numeric verbs that cannot convert', () => {
      for (const verb of ['%d', '%i', '%f']) {
        expect(format(verb, throwingValueOf)).toBe('NaN');
        expect(format(verb, nullPrototype)).toBe('NaN');
      }
    });

    it('inspects what %j cannot serialise', () => {
      expect(format('%j', 10n)).toBe('10n');
      expect(format('%j', { a: 1n })).toBe('{ a: 1n }');
      expect(format('%j', throwingGetter)).toBe('{ secret: [Getter] }');
      expect(format('%j', throwingToJSON)).toBe('{ toJSON: [Function: toJSON] }');
    });

    it('prints a placeholder when even inspecting throws', () => {
      expect(format('%O', throwingInspect)).toBe('[unprintable object]');
      expect(format('a', throwingInspect, 'b')).toBe('a [unprintable object] b');
    });
  });

  describe('on values a verb must convert itself', () => {
    it('prints a bigint for %s with its n suffix and for %f as a plain number', () => {
      expect(formatMessage('%s', [5n])).toBe('5n');
      expect(formatMessage('%f', [5n])).toBe('5');
    });

    it('inspects a plain object for %s instead of calling its inherited toString', () => {
      expect(formatMessage('%s', [{ a: 1 }])).toBe('{ a: 1 }');
    });

    it('inspects a function whose own toString throws for %s', () => {
      const fn = Object.assign(function named() {}, {
        toString() {
          throw new Error('no');
        },
      });
      expect(formatMessage('%s', [fn])).toBe(
        '{ [Function: named] toString: [Function: toString] }',
      );
    });

    it('inspects for %j what throws a TypeError whose message cannot be read, not calling it circular', () => {
      const unreadable = Object.create(TypeError.prototype, {
        message: {
          get() {
            throw new Error('no message');
          },
        },
      });
      const value = {
        toJSON() {
          throw unreadable;
        },
      };
      expect(formatMessage('%j', [value])).toBe('{ toJSON: [Function: toJSON] }');
    });
  });

  describe('with an escaper', () => {
    const cases: [string, unknown[]][] = [
      ['a safe format with unsafe arguments', ['user %s said %j', 'bob\n[ERROR]', 'q"\u2028']],
      ['an unsafe format', ['line\none %s\r%d %%\t%x', 'a\tb', 42]],
      ['unsafe objects', ['%o %O', { s: 'a\nb' }, ['"\\']]],
      ['extra unsafe arguments', ['x\n', 'y\n', { z: '\u0085' }]],
      ['no arguments', ['100%\n"done"']],
      ['a non-string first argument', [new Error('multi\nline'), 'tail\n']],
      ['fewer arguments than verbs', ['%s\n%s', 'only\n']],
    ];

    it.each(cases)(
      'escapes %s for text as if escaping the whole message',
      (_name, [first, ...args]) => {
        expect(formatMessage(first, args, escapeText)).toBe(escapeText(formatMessage(first, args)));
      },
    );

    it.each(cases)(
      'escapes %s for JSON as if escaping the whole message',
      (_name, [first, ...args]) => {
        const whole = JSON.stringify(formatMessage(first, args)).slice(1, -1);
        expect(formatMessage(first, args, jsonEncoder.escape)).toBe(whole);
      },
    );
  });
});
