/**
 * The defaults of KConfig.
 * @module
 */

/**
 * Every default of KConfig, in one place. Two are derived instead: `docs.title` defaults to
 * `serviceName` and `version` to `docs.version`.
 */
export const DEFAULTS = Object.freeze({
  port: 3000,
  env: 'development',
  host: '0.0.0.0',
  disableHealth: false,
  bodyLimit: 1_048_576,
  shutdownTimeoutMs: 10_000,
  // Longer than the idle timeout of common load balancers (60 s), so the balancer, not the
  // service, closes an idle connection: otherwise it may send a request on a closing socket.
  keepAliveTimeoutMs: 72_000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  docs: Object.freeze({ path: '/docs', version: '1.0.0' } as const),
  health: Object.freeze({ timeoutMs: 5000 } as const),
} as const);
