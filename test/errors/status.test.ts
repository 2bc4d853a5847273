import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/errors/describe.js';
import { KError } from '../../src/errors/kerror.js';
import { isErrorStatus, statusCodeName, statusTitle } from '../../src/errors/status.js';

describe('statusTitle', () => {
  it('names a status Node has no phrase for by its class, at each end of the class', () => {
    expect([399, 400, 401, 419, 499].map(statusTitle)).toEqual([
      'Unknown Status',
      'Bad Request',
      'Unauthorized',
      'Client Error',
      'Client Error',
    ]);
    expect([420, 430, 499].map(statusTitle)).toEqual([
      'Client Error',
      'Client Error',
      'Client Error',
    ]);
    expect([500, 509, 520, 599, 600].map(statusTitle)).toEqual([
      'Internal Server Error',
      'Bandwidth Limit Exceeded',
      'Server Error',
      'Server Error',
      'Unknown Status',
    ]);
    expect(statusTitle(299)).toBe('Unknown Status');
  });
});

describe('statusCodeName', () => {
  it('makes one underscore of each run of other characters, and pins 413', () => {
    expect(statusCodeName(418)).toBe('IM_A_TEAPOT');
    expect(statusCodeName(505)).toBe('HTTP_VERSION_NOT_SUPPORTED');
    expect(statusCodeName(413)).toBe('PAYLOAD_TOO_LARGE');
    expect(statusCodeName(203)).toBe('NON_AUTHORITATIVE_INFORMATION');
    expect(statusCodeName(599)).toBe('SERVER_ERROR');
  });
});

describe('isErrorStatus', () => {
  it('takes the integers 400..599 only', () => {
    expect([400, 599].map(isErrorStatus)).toEqual([true, true]);
    expect([399, 600, 404.5, '404', Number.NaN].map(isErrorStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('KError', () => {
  it('refuses a code that is not a string', () => {
    expect(
      () => new KError({ code: 42 as unknown as string, statusCode: 400, message: 'm' }),
    ).toThrow('KError code must be a non-empty string, got 42');
  });
});

describe('describeError', () => {
  it('prints a non-error as its text, a string as itself, and an error without a stack by name and message', () => {
    expect(describeError('plain words')).toBe('plain words');
    expect(describeError(42)).toBe('42');
    const bare = new TypeError('no stack');
    Object.defineProperty(bare, 'stack', { value: undefined });
    expect(describeError(bare)).toBe('TypeError: no stack');
  });

  it('counts the causes it leaves out, up to 1000+', () => {
    const chain = (n: number): Error => {
      let e = new Error('root');
      for (let i = 0; i < n; i++) e = new Error(`e${i}`, { cause: e });
      return e;
    };
    // 8 causes printed; of a chain of 1 + 1009 errors, the 1001 left are counted as 1000+.
    expect(describeError(chain(1009))).toMatch(/caused by: \[1000\+ more causes not printed\]$/);
    expect(describeError(chain(1008))).toMatch(/caused by: \[1000\+ more causes not printed\]$/);
    expect(describeError(chain(1007))).toMatch(/caused by: \[999 more causes not printed\]$/);
    expect(describeError(chain(20))).toMatch(/caused by: \[12 more causes not printed\]$/);
  });

  it('says "an unprintable value" for a value whose text throws', () => {
    const hostile = {
      toString(): string {
        throw new Error('no');
      },
    };
    expect(describeError(hostile)).toBe('an unprintable value');
  });

  it('treats a cause getter that throws as no cause', () => {
    const err = new Error('top');
    Object.defineProperty(err, 'cause', {
      get() {
        throw new Error('no');
      },
    });
    expect(describeError(err)).toBe(err.stack);
  });
});
