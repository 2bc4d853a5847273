/**
 * The messages between the primary of `runCluster` and its workers, and the worker's side of
 * asking the primary for the metrics of every worker.
 * @module
 */

/** Set in the environment of every worker `runCluster` forks. */
export const WORKER_ENV = 'KEELSON_CLUSTER_WORKER';

/** Primary → worker: begin the graceful shutdown. */
export const SHUTDOWN = 'keelson:shutdown';
/** Worker → primary: the metrics of every worker, please. */
export const METRICS_REQUEST = 'keelson:metrics-req';
/** Primary → worker: the answer to METRICS_REQUEST. */
export const METRICS_RESPONSE = 'keelson:metrics-res';

/** What the primary answers to a metrics request. */
export interface ClusterMetrics {
  readonly text: string;
  readonly contentType: string;
}

interface MetricsResponse {
  type: typeof METRICS_RESPONSE;
  id: number;
  text?: string;
  contentType?: string;
  error?: string;
}

/** Whether this process is a worker forked by `runCluster`. */
export function inClusterWorker(): boolean {
  return process.env[WORKER_ENV] === '1' && typeof process.send === 'function';
}

let nextId = 0;

/** Asks the primary for the metrics summed across every worker (prom-client's AggregatorRegistry). */
export function askPrimaryForMetrics(timeoutMs = 5000): Promise<ClusterMetrics> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const m = message as MetricsResponse | null;
      if (m?.type !== METRICS_RESPONSE || m.id !== id) return;
      done();
      if (m.error !== undefined || m.text === undefined) {
        reject(new Error(`the cluster primary could not aggregate the metrics: ${m.error}`));
      } else resolve({ text: m.text, contentType: m.contentType ?? 'text/plain' });
    };
    const timer = setTimeout(() => {
      done();
      reject(
        new Error(`the cluster primary did not answer with the metrics within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ type: METRICS_REQUEST, id });
  });
}
