import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from '../../logger/index.js';
import { refuseOnBun } from '../../runtime.js';
import { runPrimary } from './primary.js';
import { followPrimary } from './worker.js';

// What Bun's node:cluster lacks, checked with Bun 1.4.5.
const BUN_CLUSTER =
  "its node:cluster cannot hand the primary's listening socket to the workers, so the " +
  'workers do not share one port (each gets its own for port 0); run one process per core ' +
  'behind a load balancer, or run on Node.js';

/** Options of `runCluster()`. */
export interface ClusterOptions {
  /** How many workers to fork. @default os.availableParallelism() */
  workers?: number;
  /**
   * The primary's logger. @default one in the format of the workers' output (JSON when their
   * first line is JSON), so the primary's lines match what the workers' App logs
   */
  logger?: Logger;
  /** The wait before restarting a crashed worker; doubles while it keeps crashing. @default 100 */
  restartDelayMs?: number;
  /** The longest wait before a restart. @default 10000 */
  maxRestartDelayMs?: number;
  /**
   * How long the primary waits for the workers' graceful exit before killing them; longer than
   * the workers' own `shutdownTimeoutMs`. @default 30000
   */
  shutdownTimeoutMs?: number;
}

/**
 * Runs `start` in each of `workers` processes on node:cluster, all serving the same port. In
 * the primary: SIGTERM/SIGINT is forwarded to every worker, which shuts down gracefully; the
 * primary exits once all have, with the worst exit code. A worker that crashes is logged and
 * restarted after a delay that doubles while it keeps crashing. Workers' log lines go through
 * the primary whole, never mixed mid-line. With keelson/prometheus, `/metrics` on any worker
 * answers the sum over all workers.
 * @example
 * await runCluster(async () => {
 *   const app = createApp(); // builds the App, prometheus() included
 *   await app.listen();
 * }, { workers: 4 });
 */
export async function runCluster(
  start: () => unknown,
  {
    workers = availableParallelism(),
    logger,
    restartDelayMs = 100,
    maxRestartDelayMs = 10_000,
    shutdownTimeoutMs = 30_000,
  }: ClusterOptions = {},
): Promise<void> {
  if (typeof start !== 'function') {
    throw new TypeError(`runCluster: start should be a function, instead got ${typeof start}`);
  }
  refuseOnBun('keelson/cluster', BUN_CLUSTER);
  if (cluster.isWorker) {
    followPrimary();
    await start();
    return;
  }
  if (!Number.isInteger(workers) || workers < 1) {
    throw new RangeError(
      `runCluster: workers should be a positive integer, instead got ${workers}`,
    );
  }
  runPrimary({
    workers,
    logger,
    restartDelayMs,
    maxRestartDelayMs,
    shutdownTimeoutMs,
  });
}
