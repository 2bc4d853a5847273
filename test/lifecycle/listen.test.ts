import * as net from 'node:net';
import { format } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import type { Scheduler } from '../../src/extend/index.js';
import type { KConfig } from '../../src/index.js';
import { fastifyServer } from '../../src/engine/fastify-server.js';
import { Lifecycle } from '../../src/lifecycle/index.js';
import type { Logger } from '../../src/logger/index.js';

// The Lifecycle in this process: a real Fastify listening on 127.0.0.1, a logger that records
// its lines (its error(), which exits the process for real, throws Exited here), the signal
// handlers called directly, and process.exit stubbed.

class Exited extends Error {}

function recorder(flushFails = false) {
  const lines: string[] = [];
  const flushes: number[] = [];
  const logger = {
    info: (f: string, ...a: unknown[]) => void lines.push(format(f, ...a)),
    warn: (f: string, ...a: unknown[]) => void lines.push(format(f, ...a)),
    error: (f: string, ...a: unknown[]) => {
      lines.push(format(f, ...a));
      throw new Exited(format(f, ...a));
    },
    flushSync: (ms: number) => {
      flushes.push(ms);
      if (flushFails) throw new Error('stdout stalled');
    },
  } as unknown as Logger;
  return { logger, lines, flushes };
}

interface Setup {
  config?: Partial<KConfig>;
  ready?: () => Promise<void>;
  flushFails?: boolean;
  fastify?: FastifyInstance;
}

function lifecycle(setup: Setup = {}) {
  const { logger, lines, flushes } = recorder(setup.flushFails);
  const fastify = setup.fastify ?? Fastify();
  const config = resolveConfig({
    serviceName: 'svc',
    port: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 2_000,
    ...setup.config,
  });
  const life = new Lifecycle({
    config,
    logger,
    engine: () => fastifyServer(fastify),
    ready: setup.ready ?? (async () => {}),
  });
  return { life, lines, flushes, fastify };
}

const watched = ['SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'] as const;
const listenerCounts = () => watched.map((event) => process.listenerCount(event));

/** Starts listening; resolves once bound, with the SIGTERM/SIGINT handlers listen() added. */
async function serving(l: ReturnType<typeof lifecycle>) {
  const before = new Set(process.listeners('SIGTERM'));
  const served = l.life.listen();
  while (!l.lines.some((line) => line.includes('listening on')))
    await new Promise((r) => setTimeout(r, 5));
  const onSignal = process.listeners('SIGTERM').find((f) => !before.has(f)) as (
    signal: NodeJS.Signals,
  ) => void;
  return { served, onSignal };
}

function stubExit() {
  const codes: number[] = [];
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    codes.push(code ?? 0);
  }) as typeof process.exit);
  return codes;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Lifecycle.listen', () => {
  it('binds, says where (with the docs), watches signals and faults until closed, then stops watching', async () => {
    const counts = listenerCounts();
    const l = lifecycle({ config: { env: 'development', docs: { path: '/reference' } } });
    expect(l.life.address).toBeUndefined();
    const { served } = await serving(l);
    const address = l.life.address;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(l.lines).toEqual([`svc listening on ${address} (docs: ${address}/reference)`]);
    expect(listenerCounts()).toEqual(counts.map((n) => n + 1));
    expect(await l.life.close()).toBe(true);
    await served;
    expect(listenerCounts()).toEqual(counts);
  });

  it('does not mention docs that are not served (production)', async () => {
    const l = lifecycle({ config: { env: 'production' } });
    const { served } = await serving(l);
    expect(l.lines).toEqual([`svc listening on ${l.life.address}`]);
    await l.life.close();
    await served;
  });

  it('refuses a second listen(), naming the state the app is in', async () => {
    const l = lifecycle();
    const { served } = await serving(l);
    await expect(l.life.listen()).rejects.toThrow('listen() called on an app that is serving');
    await l.life.close();
    await served;
    await expect(l.life.listen()).rejects.toThrow('listen() called on an app that is closed');
  });

  it('starts the scheduler once bound, with the logger and the shutdown signal', async () => {
    const l = lifecycle();
    const started: { bound: boolean; begun: AbortSignal | undefined; logs: boolean }[] = [];
    const scheduler: Scheduler = {
      add() {},
      start: (ctx) => {
        started.push({
          bound: l.fastify.server.listening,
          begun: ctx?.shutdownBegun,
          logs: typeof ctx?.logger.info === 'function',
        });
      },
      stop: async () => {},
    };
    l.life.setScheduler(scheduler);
    expect(l.life.scheduler).toBe(scheduler);
    const { served } = await serving(l);
    expect(started).toEqual([{ bound: true, begun: l.life.shutdownBegun, logs: true }]);
    await l.life.close();
    await served;
  });

  it('exits through logger.error when the app cannot be built, and stops watching signals', async () => {
    const counts = listenerCounts();
    const l = lifecycle({ ready: () => Promise.reject(new Error('route clash')) });
    await expect(l.life.listen()).rejects.toBeInstanceOf(Exited);
    expect(l.lines).toEqual(['svc cannot start: route clash']);
    expect(listenerCounts()).toEqual(counts);
  });

  it('names a port already in use, and stops watching signals', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as net.AddressInfo).port;
    const counts = listenerCounts();
    const l = lifecycle({ config: { port } });
    await expect(l.life.listen()).rejects.toBeInstanceOf(Exited);
    expect(l.lines).toEqual([`port ${port} is already in use (host 127.0.0.1)`]);
    expect(listenerCounts()).toEqual(counts);
    await new Promise((r) => taken.close(r));
    await l.fastify.close();
  });

  it('names a port it may not listen on, and any other failure to listen', async () => {
    for (const [code, line] of [
      ['EACCES', 'no permission to listen on port 0 (host 127.0.0.1)'],
      ['EADDRNOTAVAIL', 'cannot listen on 127.0.0.1:0: refused'],
    ]) {
      const fastify = Fastify();
      vi.spyOn(fastify, 'listen').mockRejectedValue(
        Object.assign(new Error('refused'), { code }) as never,
      );
      const l = lifecycle({ fastify });
      await expect(l.life.listen()).rejects.toBeInstanceOf(Exited);
      expect(l.lines).toEqual([line]);
    }
  });
});

describe('Lifecycle.close', () => {
  it('refuses listen() once shutdown has begun, naming the state', async () => {
    const l = lifecycle();
    let finish: (() => void) | undefined;
    l.life.addHook(() => new Promise<void>((r) => (finish = r)));
    const closing = l.life.close();
    await expect(l.life.listen()).rejects.toThrow('listen() called on an app that is closing');
    while (!finish) await new Promise((r) => setTimeout(r, 5));
    finish();
    expect(await closing).toBe(true);
  });

  it('closed while starting: listen() never binds the port, and returns once the shutdown is done', async () => {
    let built: (() => void) | undefined;
    const l = lifecycle({ ready: () => new Promise<void>((r) => (built = r)) });
    const counts = listenerCounts();
    const served = l.life.listen();
    while (!built) await new Promise((r) => setTimeout(r, 5));
    const closing = l.life.close();
    built();
    await served;
    expect(await closing).toBe(true);
    expect(l.fastify.server.listening).toBe(false);
    expect(l.life.address).toBeUndefined();
    expect(l.lines.some((line) => line.includes('listening on'))).toBe(false);
    expect(listenerCounts()).toEqual(counts);
  });

  it('aborts shutdownBegun at once and shutdownDeadline only when the hooks’ time is up', async () => {
    const l = lifecycle({ config: { shutdownTimeoutMs: 200 } });
    const { served } = await serving(l);
    let sawDeadline: boolean | undefined;
    l.life.addHook(async (signal) => {
      await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
      sawDeadline = l.life.shutdownDeadline.aborted;
    });
    const closing = l.life.close();
    expect(l.life.shutdownBegun.aborted).toBe(true);
    expect((l.life.shutdownBegun.reason as Error).message).toBe('the app is shutting down');
    expect(l.life.shutdownDeadline.aborted).toBe(false);
    expect(await closing).toBe(false);
    expect(sawDeadline).toBe(true);
    await served;
  });

  it('runs the shutdown once however often it is called, and flushes the log by the deadline', async () => {
    const l = lifecycle();
    let runs = 0;
    l.life.addHook(() => {
      runs++;
    });
    const first = l.life.close();
    expect(l.life.close()).toBe(first);
    expect(await first).toBe(true);
    expect(runs).toBe(1);
    expect(l.flushes).toHaveLength(1);
    expect(l.flushes[0]).toBeGreaterThan(1_500);
    expect(l.flushes[0]).toBeLessThanOrEqual(2_000);
  });

  it('resolves false when the log cannot be flushed', async () => {
    const l = lifecycle({ flushFails: true });
    expect(await l.life.close()).toBe(false);
  });

  it('refuses a shutdown hook that is not a function', () => {
    const l = lifecycle();
    expect(() => l.life.addHook(42 as never)).toThrow(
      'a shutdown hook must be a function, got number',
    );
  });
});

describe('Lifecycle on SIGTERM / SIGINT', () => {
  it('shuts down, says it stopped, and exits 0 after the code that awaited listen() ran', async () => {
    const codes = stubExit();
    const l = lifecycle();
    const { served, onSignal } = await serving(l);
    const order: string[] = [];
    const after = served.then(() => void order.push('after listen'));
    vi.mocked(process.exit).mockImplementation(((code?: number) => {
      codes.push(code ?? 0);
      order.push('exit');
    }) as typeof process.exit);
    onSignal('SIGTERM');
    expect(l.life.shutdownBegun.aborted).toBe(true);
    await after;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['after listen', 'exit']);
    expect(codes).toEqual([0]);
    expect(l.lines.slice(1)).toEqual(['SIGTERM received: shutting down', 'svc stopped']);
    expect(await l.life.close()).toBe(true);
    expect(l.flushes).toHaveLength(1);
  });

  it('exits 1 and says so when a hook failed', async () => {
    const codes = stubExit();
    const l = lifecycle();
    l.life.addHook(() => {
      throw new Error('db gone');
    });
    const { served, onSignal } = await serving(l);
    onSignal('SIGINT');
    await served;
    await new Promise((r) => setImmediate(r));
    expect(codes).toEqual([1]);
    expect(l.lines).toContain('svc stopped with errors');
    expect(await l.life.close()).toBe(false);
  });

  it('exits 1 when the log cannot be flushed', async () => {
    const codes = stubExit();
    const l = lifecycle({ flushFails: true });
    const { served, onSignal } = await serving(l);
    onSignal('SIGTERM');
    await served;
    await new Promise((r) => setImmediate(r));
    expect(codes).toEqual([1]);
    expect(l.lines).toContain('svc stopped');
  });

  it('exits 1 at once on a second signal during shutdown, flushing for at most a second', async () => {
    const codes = stubExit();
    const l = lifecycle();
    let finish: (() => void) | undefined;
    l.life.addHook(() => new Promise<void>((r) => (finish = r)));
    const { served, onSignal } = await serving(l);
    onSignal('SIGTERM');
    while (!finish) await new Promise((r) => setTimeout(r, 5));
    vi.mocked(process.exit).mockImplementationOnce(((code?: number) => {
      codes.push(code ?? 0);
      throw new Exited('exit');
    }) as typeof process.exit);
    expect(() => onSignal('SIGINT')).toThrow(Exited);
    expect(codes).toEqual([1]);
    expect(l.lines.at(-1)).toBe('SIGINT received again during shutdown: exiting now');
    expect(l.flushes).toHaveLength(1);
    expect(l.flushes[0]).toBeGreaterThan(900);
    expect(l.flushes[0]).toBeLessThanOrEqual(1_000);
    finish();
    await served;
    await new Promise((r) => setImmediate(r));
    // The first signal's shutdown still ends with its own exit.
    expect(codes).toEqual([1, 0]);
  });

  it('takes the same signal twice within 50 ms as one (bun run forwards what the group got)', async () => {
    const codes = stubExit();
    const l = lifecycle();
    let finish: (() => void) | undefined;
    l.life.addHook(() => new Promise<void>((r) => (finish = r)));
    const { served, onSignal } = await serving(l);
    onSignal('SIGTERM');
    onSignal('SIGTERM');
    expect(codes).toEqual([]);
    expect(l.lines).toContain('SIGTERM delivered twice within 50 ms: taken as one');
    while (!finish) await new Promise((r) => setTimeout(r, 5));
    // Past the window, the same signal again is a second signal: exit now.
    await new Promise((r) => setTimeout(r, 60));
    vi.mocked(process.exit).mockImplementationOnce(((code?: number) => {
      codes.push(code ?? 0);
      throw new Exited('exit');
    }) as typeof process.exit);
    expect(() => onSignal('SIGTERM')).toThrow(Exited);
    expect(codes).toEqual([1]);
    finish();
    await served;
    await new Promise((r) => setImmediate(r));
    expect(codes).toEqual([1, 0]);
  });
});
