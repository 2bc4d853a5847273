import { describe, expect, it } from 'vitest';
import { describeError, MAX_CAUSE_DEPTH } from '../../src/errors/describe.js';

describe('describeError', () => {
  it('prints the stack, then each cause on its own "caused by:" line', () => {
    const root = new Error('disk full');
    const top = new Error('save failed', { cause: root });
    const text = describeError(top);
    expect(text.startsWith('Error: save failed\n')).toBe(true);
    expect(text).toContain('\ncaused by: Error: disk full\n');
  });

  it('names a cyclic cause chain once instead of printing it again', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    const text = describeError(a);
    expect(text.length).toBeLessThan(10_000);
    expect(text.match(/caused by:/g)).toHaveLength(2);
    expect(text.endsWith('caused by: [circular: a cause printed above]')).toBe(true);
  });

  it('names an error that is its own cause', () => {
    const a = new Error('self');
    a.cause = a;
    expect(describeError(a)).toMatch(
      /^Error: self\n[\s\S]*\ncaused by: \[circular: a cause printed above\]$/,
    );
  });

  it(`stops after ${MAX_CAUSE_DEPTH} causes and counts the ones it left out`, () => {
    let error: Error = new Error('e0');
    for (let i = 1; i <= 50; i++) error = new Error(`e${i}`, { cause: error });
    const text = describeError(error);
    expect(text.match(/caused by: Error/g)).toHaveLength(MAX_CAUSE_DEPTH);
    expect(text.endsWith(`caused by: [${50 - MAX_CAUSE_DEPTH} more causes not printed]`)).toBe(
      true,
    );
  });

  it('prints non-Error values and causes, and never throws on an unprintable one', () => {
    expect(describeError('plain')).toBe('plain');
    expect(describeError(42)).toBe('42');
    const unprintable = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeError(unprintable)).toBe('an unprintable value');
    const withCause = new Error('top', { cause: 'a string cause' });
    expect(describeError(withCause)).toMatch(/\ncaused by: a string cause$/);
    const hostile = new Error('hostile');
    Object.defineProperty(hostile, 'cause', {
      get() {
        throw new Error('getter');
      },
    });
    expect(describeError(hostile)).toMatch(/^Error: hostile/);
  });
});
