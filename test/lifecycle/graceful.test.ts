import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShutdownHook } from '../../src/extend/index.js';
import {
  flushBy,
  gracefulShutdown,
  type ShutdownOutcome,
} from '../../src/lifecycle/index.js';
import type { Logger } from '../../src/logger/index.js';
import { memoryLogger } from '../app/helpers.js';

// gracefulShutdown on a fake clock, with a stand-in for the engine (its close() settles when
// the test says) and for the connection tracker (it counts what it is asked to cut).

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Setup {
  timeoutMs?: number;
  drainDelayMs?: number;
  hooks?: ShutdownHook[];
  unanswered?: number;
  stillOpen?: number;
  withConnections?: boolean;
}

function shutdown(setup: Setup = {}) {
  const closing = deferred();
  const server = { closeIdleConnections: vi.fn(), closeAllConnections: vi.fn() };
  const close = vi.fn(() => closing.promise);
  const engine = {
    close,
    closeIdle: server.closeIdleConnections,
    closeAll: server.closeAllConnections,
    track: vi.fn(),
    listen: vi.fn(),
  };
  const tracker = {
    cutUnanswered: vi.fn(() => setup.unanswered ?? 0),
    cutAll: vi.fn(() => setup.stillOpen ?? 0),
    stop: vi.fn(),
  };
  const { logger, lines } = memoryLogger();
  const deadline = new AbortController();
  let outcome: ShutdownOutcome | undefined;
  const done = gracefulShutdown({
    engine,
    connections:
      setup.withConnections === false ? undefined : tracker,
    hooks: setup.hooks ?? [],
    logger,
    timeoutMs: setup.timeoutMs ?? 1_000,
    drainDelayMs: setup.drainDelayMs ?? 0,
    deadline,
  }).then((o) => {
    outcome = o;
    return o;
  });
  const messages = () => lines.map((l) => String((JSON.parse(l) as { message?: unknown }).message));
  return {
    closing,
    close,
    server,
    tracker,
    deadline,
    done,
    messages,
    outcome: () => outcome,
  };
}

beforeEachFakeClock();

function beforeEachFakeClock() {
  afterEach(() => {
    vi.useRealTimers();
  });
}

function fakeClock() {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  return Date.now();
}

describe('gracefulShutdown: the drain delay', () => {
  it('keeps serving for drainDelayMs, saying so, before it closes the listener', async () => {
    const start = fakeClock();
    const s = shutdown({ drainDelayMs: 300 });
    expect(s.messages()).toEqual(['readiness answers 503; serving on for 300 ms before draining']);
    await vi.advanceTimersByTimeAsync(299);
    expect(s.close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.close).toHaveBeenCalledOnce();
    s.closing.resolve();
    // The shutdown's time starts after the delay.
    expect((await s.done).endsAt).toBe(start + 300 + 1_000);
  });

  it('closes the listener at once, without a word, when there is no delay', async () => {
    const start = fakeClock();
    const s = shutdown();
    expect(s.close).toHaveBeenCalledOnce();
    s.closing.resolve();
    expect(await s.done).toEqual({ ok: true, endsAt: start + 1_000 });
    expect(s.messages()).toEqual([]);
  });
});

describe('gracefulShutdown: the drain', () => {
  it('closes idle connections every 50 ms while draining, and stops when done, leaving no timer', async () => {
    fakeClock();
    const s = shutdown({ timeoutMs: 10_000 });
    await vi.advanceTimersByTimeAsync(49);
    expect(s.server.closeIdleConnections).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.server.closeIdleConnections).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(s.server.closeIdleConnections).toHaveBeenCalledTimes(3);
    s.closing.resolve();
    expect((await s.done).ok).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(s.tracker.stop).toHaveBeenCalledOnce();
    expect(s.tracker.cutUnanswered).not.toHaveBeenCalled();
    expect(s.tracker.cutAll).not.toHaveBeenCalled();
    expect(s.server.closeAllConnections).not.toHaveBeenCalled();
  });

  it('cuts off the requests not answered when half the timeout has passed, and fails the shutdown', async () => {
    fakeClock();
    const s = shutdown({ timeoutMs: 1_000, unanswered: 2 });
    await vi.advanceTimersByTimeAsync(499);
    expect(s.tracker.cutUnanswered).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.tracker.cutUnanswered).toHaveBeenCalledExactlyOnceWith(
      "not answered within the drain's 500 ms",
    );
    s.closing.resolve();
    expect((await s.done).ok).toBe(false);
    expect(s.messages()).toEqual(['drain: cut off 2 request(s) not answered within 500 ms']);
    expect(s.tracker.cutAll).not.toHaveBeenCalled();
  });

  it('stays ok when the drain share passes with nothing to cut and the listener closes in time', async () => {
    fakeClock();
    const s = shutdown({ timeoutMs: 1_000, unanswered: 0 });
    await vi.advanceTimersByTimeAsync(600);
    expect(s.tracker.cutUnanswered).toHaveBeenCalledOnce();
    s.closing.resolve();
    expect((await s.done).ok).toBe(true);
    expect(s.messages()).toEqual([]);
  });

  it('works without a connection tracker (an app that never listened)', async () => {
    fakeClock();
    const s = shutdown({ timeoutMs: 1_000, withConnections: false });
    await vi.advanceTimersByTimeAsync(600);
    s.closing.resolve();
    expect(await s.done).toMatchObject({ ok: true });
  });
});

describe('gracefulShutdown: the hooks and the deadline', () => {
  it('gives the hooks one signal that aborts at the timeout less the flush’s tenth', async () => {
    fakeClock();
    const seen: AbortSignal[] = [];
    const hang = deferred();
    const s = shutdown({
      timeoutMs: 1_000,
      hooks: [
        (signal) => {
          seen.push(signal);
          return hang.promise;
        },
      ],
    });
    s.closing.resolve();
    await vi.advanceTimersByTimeAsync(899);
    expect(seen).toEqual([s.deadline.signal]);
    expect(s.deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.deadline.signal.aborted).toBe(true);
    expect((s.deadline.signal.reason as Error).message).toBe('shutdown deadline of 900 ms passed');
    expect((await s.done).ok).toBe(false);
    expect(s.messages()).toEqual([
      'shutdown hook #1 abandoned: still running at the shutdown deadline',
    ]);
  });

  it('fails the shutdown when a hook fails, even if everything else went well', async () => {
    fakeClock();
    const s = shutdown({
      hooks: [
        () => {
          throw new Error('db gone');
        },
      ],
    });
    s.closing.resolve();
    expect((await s.done).ok).toBe(false);
  });

  it('runs the hooks while a response is still being sent, and cuts everything still open at the deadline', async () => {
    fakeClock();
    const ran: number[] = [];
    const s = shutdown({
      timeoutMs: 1_000,
      stillOpen: 3,
      hooks: [() => void ran.push(Date.now())],
    });
    const start = Date.now();
    // The listener never closes: a response goes on past the drain share.
    await vi.advanceTimersByTimeAsync(500);
    expect(ran).toEqual([start + 500]);
    await vi.advanceTimersByTimeAsync(399);
    expect(s.tracker.cutAll).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.tracker.cutAll).toHaveBeenCalledExactlyOnceWith('the shutdown deadline passed');
    expect(s.server.closeAllConnections).toHaveBeenCalledOnce();
    expect((await s.done).ok).toBe(false);
    expect(s.messages()).toEqual([
      'drain: cut off 3 connection(s) still open at the shutdown deadline',
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says it cut off 0 connections when there is no tracker', async () => {
    fakeClock();
    const s = shutdown({ timeoutMs: 1_000, withConnections: false });
    await vi.advanceTimersByTimeAsync(900);
    expect((await s.done).ok).toBe(false);
    expect(s.messages()).toEqual([
      'drain: cut off 0 connection(s) still open at the shutdown deadline',
    ]);
    expect(s.server.closeAllConnections).toHaveBeenCalledOnce();
  });
});

describe('gracefulShutdown: failures', () => {
  it('runs the hooks when the listener fails to close, logs it, cuts what is open and fails the shutdown', async () => {
    fakeClock();
    const ran: string[] = [];
    const s = shutdown({ hooks: [() => void ran.push('first'), () => void ran.push('second')] });
    s.closing.reject(new Error('onClose hook broke'));
    expect((await s.done).ok).toBe(false);
    expect(ran).toEqual(['first', 'second']);
    expect(s.messages()).toHaveLength(1);
    expect(s.messages()[0]).toMatch(/^closing the server failed: Error: onClose hook broke\n/);
    expect(s.tracker.cutAll).toHaveBeenCalledOnce();
    expect(s.server.closeAllConnections).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
    expect(s.tracker.stop).toHaveBeenCalledOnce();
  });

  it('logs a close failure that is not an Error as its text', async () => {
    fakeClock();
    const s = shutdown();
    s.closing.reject('plain words');
    expect((await s.done).ok).toBe(false);
    expect(s.messages()).toEqual(['closing the server failed: plain words']);
  });

  it('never rejects: a failure outside the hooks is logged and fails the shutdown', async () => {
    fakeClock();
    const s = shutdown();
    s.tracker.cutAll.mockImplementation(() => {
      throw new Error('tracker broke');
    });
    s.closing.reject('no listener');
    expect((await s.done).ok).toBe(false);
    expect(s.messages()).toEqual([
      'closing the server failed: no listener',
      'shutdown failed: tracker broke',
    ]);
    expect(s.tracker.stop).toHaveBeenCalledOnce();
  });
});

describe('flushBy', () => {
  it('flushes within the time left until endsAt, never a negative time, and says whether it could', () => {
    const now = fakeClock();
    const times: number[] = [];
    const logger = {
      flushSync: (ms: number) => void times.push(ms),
    } as unknown as Logger;
    expect(flushBy(logger, now + 250)).toBe(true);
    expect(flushBy(logger, now - 250)).toBe(true);
    expect(times).toEqual([250, 0]);
    const stalled = {
      flushSync: () => {
        throw new Error('stdout stalled');
      },
    } as unknown as Logger;
    expect(flushBy(stalled, now + 250)).toBe(false);
  });
});
