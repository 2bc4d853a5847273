import { describe, expect, it } from 'vitest';
import type { Scheduler } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** What every Scheduler must do, run against one implementation. */
export function schedulerContract(name: string, make: () => Scheduler): void {
  describe(`Scheduler contract: ${name}`, () => {
    it('adds jobs, starts, and stops with nothing running', async () => {
      const s = make();
      s.add({ name: 'five-fields', schedule: '0 3 * * *', handler() {} });
      s.add({ name: 'six-fields', schedule: '0 0 3 * * *', handler: async () => {} });
      s.start();
      await s.stop(new AbortController().signal);
    });

    it('lets an App shut down cleanly through the hook registerScheduler adds', async () => {
      const { app } = testApp();
      const s = make();
      s.add({ name: 'nightly', schedule: '0 0 * * *', handler() {} });
      app.registerScheduler(s);
      expect(await app.close()).toBe(true);
    });
  });
}
