// A Vitest setup file (vitest.config.ts `setupFiles`): every problem body Keelson makes during
// a test is checked against the error catalogue. A code outside it fails the test unless the
// thrown value it came from was built by the test itself (a service's own KError code): one
// built in src/ or by the engine (node_modules) with no test frame is Keelson's own answer.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach } from 'vitest';
import {
  isKeelsonErrorCode,
  PROBLEM_CHANNEL,
  type ProblemDetails,
} from '../../src/errors/index.js';
import { keelsonSite } from './keelson-site.js';

const found: string[] = [];

function check(message: unknown): void {
  const { problem, error } = message as { problem: ProblemDetails; error: unknown };
  if (isKeelsonErrorCode(problem.code)) return;
  const site = error === undefined ? 'a problem built without an error' : keelsonSite(error);
  if (site !== undefined) {
    found.push(`${problem.status} ${problem.code} (built in ${site})`);
  }
}

subscribe(PROBLEM_CHANNEL, check);
afterAll(() => unsubscribe(PROBLEM_CHANNEL, check));

afterEach(() => {
  if (found.length === 0) return;
  const codes = found.splice(0);
  throw new Error(
    `Keelson answered with a code that is not in src/errors/catalogue.ts: ${codes.join('; ')}. ` +
      'Add it to ERROR_CATALOGUE, build it with keelsonError() and regenerate the docs page: npm run gen:errors',
  );
});
