import { readFileSync } from 'node:fs';
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

describe('the comparison table of docs/guide/breaking-changes.md', () => {
  it('has one row per pair, with both verdicts of the table', () => {
    const page = readFileSync(
      new URL('../../docs/guide/breaking-changes.md', import.meta.url),
      'utf8',
    );
    const section = page.slice(page.indexOf('## Compared with openapi-diff'));
    const rows = [...section.matchAll(/^\| (?!pair |---)(.+?) \| (\S+) \| (\S+) \|$/gm)].map(
      (m) => [m[1], m[2], m[3]],
    );
    expect(rows).toEqual(PAIRS.map((p) => [p.name, p.keelson, p.openapiDiff]));
    const agree = PAIRS.filter((p) => p.keelson === p.openapiDiff).length;
    expect(section).toContain(`agree on ${agree} of the ${PAIRS.length} pairs`);
  });
});
