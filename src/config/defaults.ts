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
  docs: Object.freeze({ path: '/docs', version: '1.0.0' } as const),
  health: Object.freeze({ timeoutMs: 5000 } as const),
} as const);
