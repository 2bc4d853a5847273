import type { Reporter, TestModule } from 'vitest/node';
import { FIGURE_LABELS, type Figures } from './figures.js';

/**
 * Prints the figures the reliability tests recorded, then one closing line,
 * `reliability: N passed, N failed`.
 */
export default class ReliabilityReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    const totals: Figures = {
      requestsSent: 0,
      failures: 0,
      malformedTried: 0,
      serverErrors: 0,
      logLinesLost: 0,
      uploadPeakRssMb: 0,
      uploadRssGrowthMb: 0,
      wsFloodRssBeforeMb: 0,
      wsFloodPeakRssMb: 0,
      wsDeafShutdownExitCode: 0,
      wsDeafShutdownMs: 0,
      uploadRefusalMs: 0,
      logPipeMBps: 0,
      pinoPipeMBps: 0,
      dbPoolSlowest503Ms: 0,
      dbPoolRecoverMs: 0,
      dbOutageRecoverMs: 0,
    };
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        const figures = test.meta().figures ?? {};
        for (const key of Object.keys(totals) as (keyof Figures)[]) {
          totals[key] += figures[key] ?? 0;
        }
      }
      // A file whose hooks failed, or that failed to load, counts as a failure even when none
      // of its tests ran.
      failed += mod.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    const keys = Object.keys(FIGURE_LABELS) as (keyof Figures)[];
    const figures = keys.map((k) => `${FIGURE_LABELS[k]} ${totals[k]}`).join(', ');
    process.stdout.write(`\nreliability figures: ${figures}\n`);
    process.stdout.write(`reliability: ${passed} passed, ${failed} failed\n`);
  }
}
