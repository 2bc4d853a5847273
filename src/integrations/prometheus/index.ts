/**
 * keelson/prometheus: request metrics and `GET /metrics` on prom-client (an optional peer
 * dependency: install `prom-client` to use this entry).
 * @module
 */

export {
  DEFAULT_BUCKETS,
  PrometheusMetrics,
  type PrometheusOptions,
  prometheus,
} from './prometheus.js';
