import type { Counter, Histogram, Registry } from 'prom-client';
import type { App, Module } from '../../app.js';
import type { JobMetric, MetricsCollector, QueryMetric, RequestMetric } from '../../contracts.js';
import { get } from '../../routing/builders.js';
import type { RouteDef } from '../../routing/types.js';
import { askPrimaryForMetrics, inClusterWorker } from '../cluster/ipc.js';
import { promClient } from './peer.js';

/** Options of `prometheus()`. */
export interface PrometheusOptions {
  /** Where the metrics are served, in the text exposition format. @default '/metrics' */
  path?: string;
  /** Upper bounds of the request-duration histogram, in seconds. @default DEFAULT_BUCKETS */
  buckets?: readonly number[];
  /**
   * Collects the process metrics of prom-client (CPU, memory, event loop, GC), less its three
   * `nodejs_active_*_total` gauges, which repeat the sums of `nodejs_active_*`. @default true
   */
  defaultMetrics?: boolean;
  /** A prefix for every metric name, e.g. `'users_api_'`. @default '' */
  prefix?: string;
  /** Labels added to every series, e.g. `{ service: 'users-api' }`. @default {} */
  defaultLabels?: Record<string, string>;
  /** Lists the metrics route in the OpenAPI document. @default false */
  documented?: boolean;
}

/** Buckets of the request-duration histogram, in seconds: 5 ms to 10 s. */
export const DEFAULT_BUCKETS: readonly number[] = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]);

const LABELS = ['method', 'route', 'status_code'] as const;

// Jobs run longer than requests: 10 ms to 10 min.
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 600];

const LEGACY_TOTAL_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * Request metrics for Prometheus: a counter and a duration histogram per method, route pattern
 * and status, the process metrics, and a route that serves them. Used as a module, it sets
 * itself as the app's metrics collector and adds the route (under the group's prefix and
 * middleware when used on a group). Each instance has its own registry.
 * @example
 * const metrics = prometheus({ path: '/metrics' });
 * app.use(metrics);
 * new Counter({ name: 'jobs_total', help: 'Jobs run', registers: [metrics.registry] });
 */
export class PrometheusMetrics implements MetricsCollector, Module {
  /** The prom-client registry of this instance; register custom metrics on it. */
  readonly registry: Registry;
  /** The path of the metrics route. */
  readonly path: string;
  readonly #requests: Counter<(typeof LABELS)[number]>;
  readonly #duration: Histogram<(typeof LABELS)[number]>;
  readonly #deprecated: Counter<'operation'>;
  readonly #jobs: Counter<'queue' | 'job' | 'status'>;
  readonly #jobDuration: Histogram<'queue' | 'job' | 'status'>;
  readonly #queryDuration: Histogram<'operation' | 'status'>;
  readonly #documented: boolean;

  /** Prefer `prometheus(options)`. */
  constructor({
    path = '/metrics',
    buckets = DEFAULT_BUCKETS,
    defaultMetrics = true,
    prefix = '',
    defaultLabels = {},
    documented = false,
  }: PrometheusOptions = {}) {
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new TypeError(`prometheus: path should start with '/', instead got ${String(path)}`);
    }
    this.path = path;
    this.#documented = documented;
    this.registry = new promClient.Registry();
    this.registry.setDefaultLabels(defaultLabels);
    this.#requests = new promClient.Counter({
      name: `${prefix}http_requests_total`,
      help: 'HTTP requests served, by method, route pattern and status code.',
      labelNames: LABELS,
      registers: [this.registry],
    });
    this.#duration = new promClient.Histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: 'Time from the arrival of an HTTP request to the end of its response, in seconds.',
      labelNames: LABELS,
      buckets: [...buckets],
      registers: [this.registry],
    });
    this.#deprecated = new promClient.Counter({
      name: `${prefix}http_deprecated_requests_total`,
      help: 'Requests served by deprecated operations, by operationId: who still calls them.',
      labelNames: ['operation'],
      registers: [this.registry],
    });
    this.#jobs = new promClient.Counter({
      name: `${prefix}jobs_total`,
      help: 'Tries of background jobs (keelson/queue) finished, by queue, job name and status.',
      labelNames: ['queue', 'job', 'status'],
      registers: [this.registry],
    });
    this.#jobDuration = new promClient.Histogram({
      name: `${prefix}job_duration_seconds`,
      help: 'Time a try of a background job ran, in seconds.',
      labelNames: ['queue', 'job', 'status'],
      buckets: [...JOB_BUCKETS],
      registers: [this.registry],
    });
    this.#queryDuration = new promClient.Histogram({
      name: `${prefix}db_query_duration_seconds`,
      help: 'Time a database query (keelson/db) took, in seconds, by operation and status.',
      labelNames: ['operation', 'status'],
      buckets: [...buckets],
      registers: [this.registry],
    });
    if (defaultMetrics) {
      promClient.collectDefaultMetrics({ register: this.registry, prefix });
      // Gauges named like counters break the naming rules `promtool check metrics` enforces;
      // each is the sum of its un-suffixed, per-type sibling, so nothing is lost.
      for (const name of LEGACY_TOTAL_GAUGES) this.registry.removeSingleMetric(prefix + name);
    }
    // In a worker of keelson/cluster: the primary collects this registry from every worker.
    if (inClusterWorker()) shareWithPrimary(this.registry);
  }

  /** Counts one finished request and observes its duration; counts a deprecated call too. */
  recordRequest({ method, route, statusCode, durationMs, deprecated }: RequestMetric): void {
    const labels = { method, route, status_code: statusCode };
    this.#requests.inc(labels);
    this.#duration.observe(labels, durationMs / 1000);
    if (deprecated !== undefined) this.#deprecated.inc({ operation: deprecated });
  }

  /** Counts one finished try of a background job and observes its duration. */
  recordJob({ queue, job, status, durationMs }: JobMetric): void {
    const labels = { queue, job, status };
    this.#jobs.inc(labels);
    this.#jobDuration.observe(labels, durationMs / 1000);
  }

  /** Observes one finished database query's duration. */
  recordQuery({ operation, durationMs, failed }: QueryMetric): void {
    this.#queryDuration.observe({ operation, status: failed ? 'error' : 'ok' }, durationMs / 1000);
  }

  /** The route that serves the metrics in the Prometheus text exposition format. */
  route(): RouteDef {
    const registry = this.registry;
    return get(
      this.path,
      {
        hidden: !this.#documented,
        summary: 'Prometheus metrics',
        description: 'The metrics of the service in the Prometheus text exposition format.',
        tags: ['metrics'],
        operationId: 'getMetrics',
      },
      async function serveMetrics(c) {
        if (inClusterWorker()) {
          const summed = await askPrimaryForMetrics();
          c.reply.type(summed.contentType);
          return summed.text;
        }
        const text = await registry.metrics();
        c.reply.type(registry.contentType);
        return text;
      },
    );
  }

  /** Sets this instance as the app's metrics collector and adds the metrics route. */
  register(app: App): void {
    app.setMetricsCollector(this);
    app.addRoutes(this.route());
  }
}

/**
 * Creates Prometheus request metrics; `app.use()` it.
 * @example app.use(prometheus({ path: '/metrics', prefix: 'users_api_' }));
 */
export function prometheus(options: PrometheusOptions = {}): PrometheusMetrics {
  return new PrometheusMetrics(options);
}

const shared: Registry[] = [];

function shareWithPrimary(registry: Registry): void {
  shared.push(registry);
  promClient.AggregatorRegistry.setRegistries(shared);
  // Constructed once in the worker, it answers the primary's requests for these registries.
  if (shared.length === 1) new promClient.AggregatorRegistry();
}
