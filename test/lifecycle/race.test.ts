import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { raceAbort, raceTime } from '../../src/lifecycle/race.js';

const never = new Promise<never>(() => {});

describe('raceAbort', () => {
  it('resolves false at once when the signal has already aborted, even for settled work', async () => {
    expect(await raceAbort(Promise.resolve(), AbortSignal.abort())).toBe(false);
  });

  it('resolves true when the work settles first, and stops listening to the signal', async () => {
    const signal = new AbortController().signal;
    expect(await raceAbort(Promise.resolve('done'), signal)).toBe(true);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('resolves false when the signal aborts first', async () => {
    const controller = new AbortController();
    const raced = raceAbort(never, controller.signal);
    controller.abort();
    expect(await raced).toBe(false);
    // The aborted signal keeps nothing of the work alive.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the error of work that fails first, and stops listening to the signal', async () => {
    const signal = new AbortController().signal;
    const failure = new Error('hook failed');
    await expect(raceAbort(Promise.reject(failure), signal)).rejects.toBe(failure);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

describe('raceTime', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves true for work that settles within the time, leaving no timer and no listener', async () => {
    vi.useFakeTimers();
    const signal = new AbortController().signal;
    expect(await raceTime(Promise.resolve(), 1_000, signal)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('resolves false when the time runs out first, and not before', async () => {
    vi.useFakeTimers();
    let settled: boolean | undefined;
    const raced = raceTime(never, 1_000, new AbortController().signal).then((v) => {
      settled = v;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await raced;
    expect(settled).toBe(false);
  });

  it('resolves false when the signal aborts before the time runs out', async () => {
    const controller = new AbortController();
    const raced = raceTime(never, 60_000, controller.signal);
    controller.abort();
    expect(await raced).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
