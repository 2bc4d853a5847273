import { describe, expect, it } from 'vitest';
import { runChecker } from '../../src/health/run-checker.js';

const checker = (check: () => unknown) => ({ name: () => 'db', check: async () => check() });

describe('runChecker', () => {
  it('answers UP for a checker that resolves nothing, and UP: <warning> for one that resolves text', async () => {
    expect(await runChecker(checker(() => undefined) as never, 1_000)).toBe('UP');
    expect(await runChecker(checker(() => '') as never, 1_000)).toBe('UP');
    expect(await runChecker(checker(() => 'replica lag') as never, 1_000)).toBe('UP: replica lag');
  });

  it('answers DOWN with the reason thrown: an Error message, a string, or "check failed"', async () => {
    const down = (thrown: unknown) =>
      runChecker(
        checker(() => {
          throw thrown;
        }) as never,
        1_000,
      );
    expect(await down(new Error('refused'))).toBe('DOWN: refused');
    expect(await down('no route')).toBe('DOWN: no route');
    expect(await down(42)).toBe('DOWN: 42');
    expect(await down(new Error(''))).toBe('DOWN: check failed');
    const unprintable = {
      toString() {
        throw new Error('no');
      },
    };
    expect(await down(unprintable)).toBe('DOWN: check failed');
  });
});
