/**
 * The health routes, as ordinary routes of the table: documented, logged and counted like any.
 * @module
 */
import type { ResolvedConfig } from '../config/index.js';
import { get } from '../routing/builders.js';
import type { RouteDef } from '../routing/types.js';
import type { HealthRegistry } from './registry.js';
import { HealthBody, type HealthReport, LiveBody, SHUTTING_DOWN } from './report.js';

/** The part of the resolved config the health routes read. */
export type HealthRouteConfig = Pick<ResolvedConfig, 'serviceName' | 'version' | 'health'>;

interface ReportOptions {
  readonly registry: HealthRegistry;
  readonly service: string;
  readonly version: string;
  readonly timeoutMs: number;
  readonly cacheMs: number;
  readonly shutdownBegun: AbortSignal;
}

/**
 * `GET /health` and `GET /health/ready` (run the checkers of `registry`; 503 once
 * `shutdownBegun` has aborted) and `GET /health/live` (runs only the liveness checkers).
 */
export function healthRoutes(
  config: HealthRouteConfig,
  registry: HealthRegistry,
  shutdownBegun: AbortSignal,
): RouteDef[] {
  const options: ReportOptions = {
    registry,
    service: config.serviceName,
    version: config.version,
    timeoutMs: config.health.timeoutMs,
    cacheMs: config.health.cacheMs,
    shutdownBegun,
  };
  return [
    reportRoute(options, '/health', {
      summary: 'Health of the service and its dependencies',
      description:
        'Runs every registered health checker in parallel. 200 when all are UP, 503 when one ' +
        "is DOWN (those registered with `affects: 'none'` are shown, never counted) or once " +
        'the service has begun shutting down.',
      operationId: 'getHealth',
    }),
    reportRoute(options, '/health/ready', {
      summary: 'Readiness to take traffic',
      description:
        'For readiness probes: runs every registered health checker (concurrent probes share ' +
        'one run; `health.cacheMs` reuses a result). 200 when all are UP; 503 when one is ' +
        "DOWN (those registered with `affects: 'none'` are shown, never counted), and from " +
        'the moment shutdown begins (SIGTERM), so the load balancer stops sending traffic ' +
        'while the service still serves for `drainDelayMs`.',
      operationId: 'getHealthReady',
    }),
    get(
      '/health/live',
      {
        summary: 'Liveness of the process',
        description:
          'For liveness probes: answers 200 while the event loop runs, during shutdown too. ' +
          "It runs only the checkers registered with `affects: 'liveness'` (none by default: " +
          'a failing dependency is no reason to restart) and answers 503 when one is DOWN.',
        tags: ['health'],
        operationId: 'getHealthLive',
        responses: { 200: LiveBody, 503: LiveBody },
      },
      async function live(c) {
        if (registry.livenessSize === 0) return { status: 'UP' as const };
        const result = await registry.run(options, 'liveness');
        return result.status === 'UP' ? result : c.status(503, result);
      },
    ),
  ];
}

function reportRoute(
  options: ReportOptions,
  path: string,
  docs: { summary: string; description: string; operationId: string },
): RouteDef {
  const { registry, service, version, timeoutMs, cacheMs, shutdownBegun } = options;
  return get(
    path,
    { ...docs, tags: ['health'], responses: { 200: HealthBody, 503: HealthBody } },
    async function healthReport(c) {
      if (shutdownBegun.aborted) {
        return c.status(503, { status: 'DOWN', service, version, checks: { ...SHUTTING_DOWN } });
      }
      if (registry.size === 0) return { status: 'UP', service, version, checks: {} };
      const { status, checks } = await registry.run({ timeoutMs, cacheMs });
      const body: HealthReport = { status, service, version, checks };
      return status === 'UP' ? body : c.status(503, body);
    },
  );
}
