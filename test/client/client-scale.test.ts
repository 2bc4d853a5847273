import { describe, expect, it } from 'vitest';
import { checkScaleProject, postCount } from './scale-fixture.js';

// The budget: a whole tsc process over 1,000 routes and 20 calls. Instantiations are counted
// by TypeScript the same way on every machine, so the budget holds however loaded the CI is;
// the time is only bounded loosely. Measured: 1.56 M instantiations (the API alone: 1.04 M).
const ROUTES = 1000;
const MAX_INSTANTIATIONS = 2_500_000;
const MAX_SECONDS = 300; // a guard against a hang only: a shared CI machine can be slow

describe('the typed client at scale', () => {
  it(
    `type-checks 20 calls with bodies against ${ROUTES} routes, 400 of them POST, within budget`,
    () => {
      expect(postCount(ROUTES)).toBeGreaterThanOrEqual(400);
      const run = checkScaleProject(ROUTES, 20);

      expect(run.errors, run.output.slice(0, 2000)).toEqual([]);
      expect(run.instantiations).toBeLessThan(MAX_INSTANTIATIONS);
      expect(run.seconds).toBeLessThan(MAX_SECONDS);
    },
    MAX_SECONDS * 1000 + 10_000,
  );
});
