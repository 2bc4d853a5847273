import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isStandardSchema, issuePath } from '../src/standard-schema.js';

describe('isStandardSchema', () => {
  it('takes an object or a function carrying ~standard, and nothing else', () => {
    const callable = Object.assign(() => true, { '~standard': {} });
    expect([z.string(), callable, { '~standard': undefined }].map(isStandardSchema)).toEqual([
      true,
      true,
      true,
    ]);
    expect([null, undefined, 'x', 1, {}, () => true].map(isStandardSchema)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('issuePath', () => {
  it('joins keys and path segments with dots, after the prefix when there is one', () => {
    const issue = { message: 'm', path: ['items', { key: 0 }, { key: Symbol.for('s') }, 'name'] };
    expect(issuePath(issue, 'body')).toBe('body.items.0.Symbol(s).name');
    expect(issuePath(issue)).toBe('items.0.Symbol(s).name');
    expect(issuePath({ message: 'm' }, 'query')).toBe('query');
    expect(issuePath({ message: 'm', path: [] })).toBe('');
  });
});
