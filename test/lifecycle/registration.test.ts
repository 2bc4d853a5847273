import { describe, expect, it } from 'vitest';
import type { Scheduler, ShutdownHook } from '../../src/extend/index.js';
import { testApp } from '../app/helpers.js';

function scheduler(events: string[]): Scheduler {
  return {
    add() {},
    start() {
      events.push('start');
    },
    async stop(signal) {
      events.push(`stop ${signal.aborted ? 'aborted' : 'live'}`);
    },
  };
}

describe('registering shutdown work', () => {
  it('refuses a shutdown hook that is not a function, naming what it got', () => {
    const { app } = testApp();
    expect(() => app.onShutdown('close db' as unknown as ShutdownHook)).toThrow(
      'a shutdown hook must be a function, got string',
    );
  });

  it('refuses a scheduler without start() or stop(signal)', () => {
    const { app } = testApp();
    for (const bad of [
      undefined,
      { stop: async () => {} },
      { start: () => {} },
      { start: 1, stop: async () => {} },
    ]) {
      expect(() => app.registerScheduler(bad as unknown as Scheduler)).toThrow(
        'a scheduler must have start() and stop(signal) methods',
      );
    }
  });

  it('refuses a second scheduler', () => {
    const { app } = testApp();
    app.registerScheduler(scheduler([]));
    expect(() => app.registerScheduler(scheduler([]))).toThrow('a scheduler is already registered');
  });

  it("runs the scheduler's stop as a shutdown hook, in registration order, with the live shutdown signal", async () => {
    const { app } = testApp();
    const events: string[] = [];
    app.onShutdown(() => void events.push('first hook'));
    app.registerScheduler(scheduler(events));
    app.onShutdown(() => void events.push('last hook'));
    await app.ready();
    expect(await app.close()).toBe(true);
    expect(events).toEqual(['first hook', 'stop live', 'last hook']);
  });
});
