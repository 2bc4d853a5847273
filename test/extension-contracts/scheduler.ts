import { describe, expect, it } from 'vitest';
import type { Scheduler } from '../../src/extend/index.js';
import { testApp } from '../app/helpers.js';

/** Resolves after the pending callbacks of the event loop have run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** `promise`, or a rejection saying what did not happen when it takes more than `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What every Scheduler must do, run against one implementation. */
export function schedulerContract(name: string, make: () => Scheduler): void {
  describe(`Scheduler contract: ${name}`, () => {
    it('adds jobs, starts, runs a due job, and stops: aborting it and waiting for it', async () => {
      const s = make();
      let entered!: (signal: AbortSignal) => void;
      const running = new Promise<AbortSignal>((resolve) => {
        entered = resolve;
      });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ticks: unknown[] = [];
      s.add({ name: 'five-fields', schedule: '0 3 * * *', handler() {} });
      s.add({
        name: 'every-second',
        schedule: '* * * * * *',
        handler: async (signal, tick) => {
          ticks.push(tick.scheduledAt);
          entered(signal);
          await gate;
        },
      });
      s.start();
      const signal = await within(running, 3000, 'no run of an every-second job');
      expect(signal.aborted).toBe(false);
      const status = s.status?.();
      if (status) {
        expect(status.map((j) => [j.name, j.running])).toEqual([
          ['five-fields', false],
          ['every-second', true],
        ]);
        expect(status[0]?.nextRun).toBeInstanceOf(Date);
      }

      let stopped = false;
      const stopping = s.stop(new AbortController().signal).then(() => {
        stopped = true;
      });
      await turn();
      expect(signal.aborted).toBe(true);
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(stopped).toBe(true);
      // Never two runs at once: ticks while the first was running did not start another.
      expect(ticks).toHaveLength(1);
      expect(ticks[0]).toBeInstanceOf(Date);
      expect(s.status?.().every((j) => !j.running && j.nextRun === null) ?? true).toBe(true);
    });

    it('stops at once with nothing running, and gives up on a run when its signal aborts', async () => {
      const idle = make();
      idle.add({ name: 'nightly', schedule: '0 0 3 * * *', handler: async () => {} });
      idle.start();
      await expect(idle.stop(new AbortController().signal)).resolves.toBeUndefined();

      const stuck = make();
      let entered!: () => void;
      const running = new Promise<void>((resolve) => {
        entered = resolve;
      });
      stuck.add({
        name: 'ignores-its-signal',
        schedule: '* * * * * *',
        handler: () => {
          entered();
          return new Promise<void>(() => {});
        },
      });
      stuck.start();
      await within(running, 3000, 'no run of an every-second job');
      const deadline = new AbortController();
      const stopping = stuck.stop(deadline.signal);
      deadline.abort(new Error('deadline'));
      await expect(stopping).resolves.toBeUndefined();
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
