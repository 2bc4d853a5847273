import cluster, { type Worker } from 'node:cluster';
import { stdoutDestination } from '../../logger/destination.js';
import { METRICS_REQUEST, METRICS_RESPONSE, SHUTDOWN, WORKER_ENV } from './ipc.js';
import { forwardLines } from './lines.js';
import { ClusterMetricsSum } from './metrics-sum.js';
import { FollowingLogger, type PrimaryLogger } from './primary-log.js';

/** What the primary works with, defaults applied. */
export interface PrimaryPlan {
  readonly workers: number;
  /** The primary's logger; undefined: one in the format the workers' output has. */
  readonly logger: PrimaryLogger | undefined;
  readonly restartDelayMs: number;
  readonly maxRestartDelayMs: number;
  readonly shutdownTimeoutMs: number;
}

// The longest the primary's last flush waits for a slow stdout reader.
const FLUSH_MS = 1_000;

// A worker that ran this long before it crashed is restarted after the initial delay again.
const STABLE_MS = 10_000;

/**
 * Forks the workers, restarts a crashed one after a doubling delay, forwards their output line
 * by line, answers their metrics requests, and on SIGTERM/SIGINT asks each to shut down, waits
 * for all (SIGKILL at the deadline) and exits with the worst exit code.
 */
export function runPrimary(plan: PrimaryPlan): void {
  const following = plan.logger ? undefined : new FollowingLogger();
  const logger: PrimaryLogger = plan.logger ?? following!;
  const out = stdoutDestination();
  const outputs: Promise<void>[] = [];
  const live = new Set<Worker>();
  let worst = 0;
  let stopping = false;
  let metrics: ClusterMetricsSum | undefined;

  cluster.setupPrimary({ silent: true });

  const fork = (slot: number, delay: number) => {
    const worker = cluster.fork({ [WORKER_ENV]: '1' });
    const startedAt = Date.now();
    live.add(worker);
    outputs.push(
      forwardLines(worker.process.stdout, (lines) => {
        following?.observe(lines);
        out.write(lines);
      }),
      forwardLines(worker.process.stderr, (lines) => process.stderr.write(lines)),
    );
    // An IPC error (a worker exiting while it is sent something) must not end the primary.
    worker.on('error', (err) => logger.warn('worker %d: %s', worker.process.pid, err.message));
    worker.on('message', (message: unknown) => {
      const m = message as { type?: unknown; id?: unknown } | null;
      if (m?.type === METRICS_REQUEST) void answerMetrics(worker, m.id);
    });
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      metrics?.workerExited(worker);
      following?.settle();
      const status = code ?? 1;
      if (stopping) {
        worst = Math.max(worst, status);
        if (live.size === 0) void finish();
        return;
      }
      const next = Date.now() - startedAt > STABLE_MS ? plan.restartDelayMs : delay;
      logger.warn(
        'worker %d exited with %s: restarting it in %d ms',
        worker.process.pid,
        signal ? `signal ${signal}` : `code ${code}`,
        next,
      );
      setTimeout(() => {
        if (!stopping) fork(slot, Math.min(next * 2, plan.maxRestartDelayMs));
      }, next);
    });
  };

  const answerMetrics = async (worker: Worker, id: unknown) => {
    try {
      metrics ??= new ClusterMetricsSum();
      const { text, contentType } = await metrics.text();
      send(worker, { type: METRICS_RESPONSE, id, text, contentType });
    } catch (err) {
      send(worker, { type: METRICS_RESPONSE, id, error: (err as Error).message });
    }
  };

  const finish = async () => {
    // The last lines of a worker can arrive after its 'exit'.
    await Promise.race([Promise.all(outputs), new Promise((r) => setTimeout(r, 1000).unref())]);
    logger.info('cluster stopped (exit code %d)', worst);
    logger.flushSync(FLUSH_MS);
    process.exit(worst);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn('%s received again during shutdown: killing the workers', signal);
      for (const w of live) w.process.kill('SIGKILL');
      logger.flushSync(FLUSH_MS);
      process.exit(1);
    }
    stopping = true;
    logger.info('%s received: stopping %d workers', signal, live.size);
    if (live.size === 0) {
      void finish();
      return;
    }
    for (const w of live) send(w, { type: SHUTDOWN, signal });
    setTimeout(() => {
      if (live.size === 0) return;
      logger.warn('%d workers still running at the shutdown deadline: killed', live.size);
      worst = Math.max(worst, 1);
      for (const w of live) w.process.kill('SIGKILL');
    }, plan.shutdownTimeoutMs).unref();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  logger.info('cluster primary %d: starting %d workers', process.pid, plan.workers);
  for (let slot = 0; slot < plan.workers; slot++) fork(slot, plan.restartDelayMs);
}

/** Sends over IPC unless the worker's channel is already closed (it is exiting). */
function send(worker: Worker, message: object): void {
  if (worker.isConnected()) worker.send(message, undefined, () => {});
}
