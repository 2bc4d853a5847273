import openapiDiff from 'openapi-diff';
import { describe, expect, it } from 'vitest';
import { PAIRS } from './pairs.js';
import { toOpenApi30 } from './to-openapi-30.js';

// Keeps the comparison table of docs/guide/breaking-changes.md honest: Atlassian's openapi-diff
// (0.24, which reads OpenAPI 3.0 only) is run over every pair, written as 3.0.3.
const spec = (doc: object, location: string) => ({
  content: JSON.stringify(toOpenApi30(doc)),
  location,
  format: 'openapi3' as const,
});

describe("openapi-diff's verdicts on the pairs", () => {
  it.each(PAIRS.map((pair) => [pair.name, pair] as const))('%s', async (_name, pair) => {
    const result = await openapiDiff.diffSpecs({
      sourceSpec: spec(pair.base, 'base.json'),
      destinationSpec: spec(pair.current, 'current.json'),
    });
    const verdict = result.breakingDifferencesFound
      ? 'breaking'
      : result.nonBreakingDifferences.length > 0
        ? 'non-breaking'
        : result.unclassifiedDifferences.length > 0
          ? 'unclassified'
          : 'none';
    expect(verdict).toBe(pair.openapiDiff);
  });
});
