/**
 * The primary's sum of its workers' metrics, which keeps the counts of workers that exited.
 * @module
 */
import cluster, { type Worker } from 'node:cluster';
import type { AggregatorRegistry, PrometheusContentType } from 'prom-client';
import { importPeer } from '../../require-peer.js';

// prom-client's own message for a worker's answer (lib/cluster.js): one metrics array for each
// registry the worker shares.
const GET_METRICS_RES = 'prom-client:getMetricsRes';

/** A metric as `registry.getMetricsAsJSON()` gives it. */
type MetricJson = { readonly type?: unknown } & object;

type PromClient = typeof import('prom-client');

/**
 * Sums the workers' metrics with prom-client's AggregatorRegistry, and adds the last counters
 * and histograms each exited worker reported: without them the summed request counter would
 * fall when a worker dies, which Prometheus reads as a counter reset. Gauges of exited workers
 * are dropped (they describe a process that is gone).
 */
export class ClusterMetricsSum {
  #client: Promise<{ prom: PromClient; registry: AggregatorRegistry<PrometheusContentType> }>;
  /** Each live worker's last answer, by worker id. */
  readonly #last = new Map<number, MetricJson[][]>();
  /** The monotonic metrics of exited workers, still to be added. */
  #retired: MetricJson[][] = [];
  #folding = false;

  /** Starts listening to the workers' answers; prom-client is loaded on first use. */
  constructor() {
    this.#client = importPeer(
      'prom-client',
      'keelson/cluster metrics',
      () => import('prom-client'),
    ).then((prom) => ({ prom, registry: new prom.AggregatorRegistry() }));
    // Caught here; text() rejects with the same error when asked.
    this.#client.catch(() => {});
    cluster.on('message', (worker: Worker, message: unknown) => {
      const m = message as { type?: unknown; metrics?: unknown } | null;
      if (m?.type === GET_METRICS_RES && Array.isArray(m.metrics)) {
        this.#last.set(worker.id, m.metrics as MetricJson[][]);
      }
    });
  }

  /** Keeps the counters and histograms `worker` last reported; call when it has exited. */
  workerExited(worker: Worker): void {
    const last = this.#last.get(worker.id);
    this.#last.delete(worker.id);
    if (!last) return;
    for (const metrics of last) {
      this.#retired.push(metrics.filter((m) => m.type === 'counter' || m.type === 'histogram'));
    }
  }

  /** The metrics summed over the live workers and the exited ones, in the text format. */
  async text(): Promise<{ text: string; contentType: string }> {
    const { prom, registry } = await this.#client;
    const live = await registry.clusterMetrics();
    if (this.#retired.length === 0) return { text: live, contentType: registry.contentType };
    await this.#fold(prom);
    const answers = [...this.#last.values()].flat();
    const sum = prom.AggregatorRegistry.aggregate([...answers, ...this.#retired]);
    return { text: await sum.metrics(), contentType: registry.contentType };
  }

  // Folds the exited workers' metrics into one array, so restarts do not make the list grow;
  // one fold at a time, and a worker that exits meanwhile is kept after it.
  async #fold(prom: PromClient): Promise<void> {
    const n = this.#retired.length;
    if (n < 2 || this.#folding) return;
    this.#folding = true;
    try {
      const folded = await prom.AggregatorRegistry.aggregate(
        this.#retired.slice(0, n),
      ).getMetricsAsJSON();
      this.#retired.splice(0, n, folded as MetricJson[]);
    } finally {
      this.#folding = false;
    }
  }
}
