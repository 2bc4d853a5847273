import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Prints one closing line, `tests: N passed, N failed, N skipped`, after Vitest's own report,
 * so that CI can read the result of a run without parsing Vitest's layout.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (mod.state() === 'failed' && !mod.children.size) failed++;
    }
    // Type errors outside the tests and errors thrown between tests fail the run without
    // failing a test: the line must not say all passed while Vitest exits 1.
    if (reason === 'failed' && failed === 0) failed = Math.max(1, unhandledErrors.length);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
