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
  // Kubernetes' recipe sets it (docs/deploy.md): readiness fails at SIGTERM, serving goes on.
  drainDelayMs: 0,
  // Like nginx's send_timeout (60 s), shorter: a client reading nothing for 30 s is gone.
  sendTimeoutMs: 30_000,
  // Longer than the idle timeout of common load balancers (60 s), so the balancer, not the
  // service, closes an idle connection: otherwise it may send a request on a closing socket.
  keepAliveTimeoutMs: 72_000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  docs: Object.freeze({ path: '/docs', version: '1.0.0', head: true, builtins: true } as const),
  // Under Kubernetes' default 1 s probe timeout, with room for the answer to travel.
  health: Object.freeze({ timeoutMs: 800, cacheMs: 0 } as const),
} as const);
