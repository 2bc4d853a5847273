import { describe, expect, it } from 'vitest';
import { breakingChanges, diffOpenApi } from '../../src/openapi-diff/index.js';
import { PAIRS } from './pairs.js';

describe('the table of pairs', () => {
  it.each(PAIRS.map((pair) => [pair.name, pair] as const))(
    '%s: the expected verdict and changes',
    (_name, pair) => {
      const changes = diffOpenApi(pair.base, pair.current);
      const verdict = changes.some((c) => c.breaking)
        ? 'breaking'
        : changes.length > 0
          ? 'non-breaking'
          : 'none';
      expect(verdict).toBe(pair.keelson);
      expect(changes.map((c) => c.code)).toEqual(pair.codes);
      expect(breakingChanges(pair.base, pair.current).length > 0).toBe(verdict === 'breaking');
    },
  );

  it('finds nothing when a document is compared with itself, both ways round', () => {
    for (const pair of PAIRS) {
      expect(diffOpenApi(pair.current, pair.current)).toEqual([]);
      expect(diffOpenApi(pair.base, pair.base)).toEqual([]);
    }
  });
});
