import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isStandardSchema } from '../src/standard-schema.js';

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
