/**
 * Health: the checkers and the probes of an orchestrator. `GET /health` and
 * `GET /health/ready` run the checkers (and answer 503 once shutdown has begun);
 * `GET /health/live` runs only the checkers that affect liveness.
 * @module
 */
export {
  HealthRegistry,
  type HealthResult,
  type HealthRunOptions,
  type HealthScope,
} from './registry.js';
export { type HealthReport, type HealthStatus, type LiveReport, SHUTDOWN_CHECK } from './report.js';
export { type HealthRouteConfig, healthRoutes } from './routes.js';
