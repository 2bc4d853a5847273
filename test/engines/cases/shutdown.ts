/**
 * Engine cases: the graceful shutdown over a socket (readiness during the drain delay, a request
 * in flight finishing, new connections refused, hooks in order, a hung hook cut at the deadline).
 * @module
 */
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { get } from '../../../src/index.js';
import { type EngineName, engineApp, listen } from '../harness.js';

/** Whether a new TCP connection to the port is accepted or refused. */
function tryConnect(port: number): Promise<'accepted' | 'refused'> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') resolve('refused');
      else reject(err);
    });
  });
}

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** The graceful-shutdown cases, run on `engine`. */
export function shutdownCases(engine: EngineName): void {
  describe('the graceful shutdown', () => {
    it('answers readiness 503 and keeps serving during the drain delay', async () => {
      const made = engineApp(engine, { drainDelayMs: 150, shutdownTimeoutMs: 2_000 });
      made.app.addRoutes(get('/ok', () => ({ ok: true })));
      const s = await listen(made);
      expect((await s.send('/health/ready')).status).toBe(200);
      const closing = s.close();
      const ready = await s.send('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.json()).toEqual({
        status: 'DOWN',
        service: 'engine-suite',
        version: '1.0.0',
        checks: { shutdown: 'DOWN: the service is shutting down' },
      });
      expect((await s.send('/ok')).status).toBe(200);
      expect(await closing).toBe(true);
    });

    it('lets a request in flight finish, refuses new connections, then runs the hooks in order', async () => {
      const made = engineApp(engine, { shutdownTimeoutMs: 3_000 });
      const events: string[] = [];
      const inHandler = gate();
      const release = gate();
      made.app.addRoutes(
        get('/slow', async () => {
          inHandler.open();
          await release.opened;
          events.push('handler done');
          return { done: true };
        }),
      );
      const signals: AbortSignal[] = [];
      // Added first, run last: `{ last: true }` (a database pool the other hooks may still use).
      made.app.onShutdown(
        (signal) => {
          signals.push(signal);
          events.push('pool (last)');
        },
        { last: true },
      );
      made.app.onShutdown((signal) => {
        signals.push(signal);
        events.push('hook 1');
      });
      made.app.onShutdown(async (signal) => {
        signals.push(signal);
        await new Promise((resolve) => setTimeout(resolve, 10));
        events.push('hook 2');
      });
      const s = await listen(made);
      const inFlight = s.send('/slow');
      await inHandler.opened;
      const closing = s.close();
      // Once the listener is closed a new connection is refused (until then one may still be
      // accepted and answered 503, never served).
      await vi.waitFor(async () => expect(await tryConnect(s.port)).toBe('refused'), {
        timeout: 2_000,
        interval: 5,
      });
      expect(events).toEqual([]);
      release.open();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ done: true });
      expect(await closing).toBe(true);
      expect(events).toEqual(['handler done', 'hook 1', 'hook 2', 'pool (last)']);
      // One signal, shared by every hook: the shutdown deadline.
      expect(new Set(signals).size).toBe(1);
      expect(signals[0]?.aborted).toBe(false);
      expect(made.requestEntries().map((e) => [e.path, e.status])).toEqual([['/slow', 200]]);
    });

    it('cuts off a request still unanswered when the drain share ends, logging it once as a 503', async () => {
      const made = engineApp(engine, { shutdownTimeoutMs: 400 });
      const inHandler = gate();
      made.app.addRoutes(
        get('/stuck', async () => {
          inHandler.open();
          // Ignores c.signal: only the shutdown can end this request.
          await new Promise(() => {});
        }),
      );
      const events: string[] = [];
      made.app.onShutdown(() => void events.push('hook'));
      const s = await listen(made);
      const stuck = s.send('/stuck').then(
        (answer) => `answered ${answer.status}`,
        () => 'connection closed',
      );
      await inHandler.opened;
      const started = performance.now();
      expect(await s.close()).toBe(false);
      // The drain's share is half the 400 ms; the hooks still run.
      expect(performance.now() - started).toBeGreaterThanOrEqual(180);
      expect(await stuck).toBe('connection closed');
      expect(events).toEqual(['hook']);
      expect(made.requestEntries()).toEqual([
        expect.objectContaining({
          level: 'error',
          method: 'GET',
          path: '/stuck',
          status: 503,
          error: "request cut off before an answer: not answered within the drain's 200 ms",
        }),
      ]);
    });

    it('cuts a hook still running at the deadline, skips the rest and resolves false', async () => {
      const made = engineApp(engine, { shutdownTimeoutMs: 300 });
      const events: string[] = [];
      made.app.onShutdown(() => void events.push('hook 1'));
      made.app.onShutdown(function hangs(signal) {
        events.push('hook 2 started');
        signal.addEventListener('abort', () => events.push('hook 2 told: deadline'));
        return new Promise<void>(() => {});
      });
      made.app.onShutdown(() => void events.push('hook 3'));
      const s = await listen(made);
      const started = performance.now();
      expect(await s.close()).toBe(false);
      const took = performance.now() - started;
      expect(events).toEqual(['hook 1', 'hook 2 started', 'hook 2 told: deadline']);
      // The hooks' share is 90% of the 300 ms (the last tenth is the log's final flush).
      expect(took).toBeGreaterThanOrEqual(250);
      expect(took).toBeLessThan(900);
      const messages = made.entries.map((e) => e.message);
      expect(messages).toContain(
        'shutdown hook #2 (hangs) abandoned: still running at the shutdown deadline',
      );
      expect(messages).toContain('shutdown hook #3 not run: the shutdown deadline passed');
    });
  });
}
