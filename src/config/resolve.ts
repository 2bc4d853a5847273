/**
 * resolveConfig: KConfig in, ResolvedConfig out, or a ConfigError naming the bad field.
 * @module
 */

import { check, delayMs, isObject, optionalString, timeoutMs } from './checks.js';
import { DEFAULTS } from './defaults.js';
import { resolveDocs } from './resolve-docs.js';
import type { Env, EnvSource, KConfig, ResolvedConfig } from './types.js';

const ENVS: readonly Env[] = ['development', 'staging', 'production'];

/**
 * The env and where it came from: `config.env` when given, else `NODE_ENV` when it names an env
 * (a deployment that sets only NODE_ENV=production must not serve the docs and the dev panel),
 * else the default.
 */
function envOf(given: unknown, nodeEnv: string | undefined): { env: unknown; envFrom: EnvSource } {
  if (given !== undefined) return { env: given, envFrom: 'config' };
  if (ENVS.includes(nodeEnv as Env)) return { env: nodeEnv, envFrom: 'NODE_ENV' };
  return { env: DEFAULTS.env, envFrom: 'default' };
}

/**
 * Applies the defaults to a KConfig and checks every value, so the App never sees a bad one.
 * Keys it does not know are ignored. Without `env`, `nodeEnv` (NODE_ENV) decides when it is
 * `development`, `staging` or `production`.
 * @throws ConfigError naming the first bad field and its value.
 * @example resolveConfig({ serviceName: 'users-api' }).port // 3000
 */
export function resolveConfig(
  config: KConfig,
  nodeEnv: string | undefined = process.env.NODE_ENV,
): ResolvedConfig {
  check(isObject(config), 'config', 'an object', config);
  const c = config as unknown as Record<string, unknown>;
  const { serviceName } = c;
  check(
    typeof serviceName === 'string' && serviceName.trim() !== '',
    'serviceName',
    'a non-empty string',
    serviceName,
  );
  const port = c.port === undefined ? DEFAULTS.port : c.port;
  check(
    Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535,
    'port',
    'an integer in 0..65535',
    port,
  );
  const { env, envFrom } = envOf(c.env, nodeEnv);
  check(ENVS.includes(env as Env), 'env', `one of ${ENVS.map((e) => `"${e}"`).join(', ')}`, env);
  const host = optionalString(c.host, 'host', true) ?? DEFAULTS.host;
  const disableHealth = c.disableHealth === undefined ? DEFAULTS.disableHealth : c.disableHealth;
  check(typeof disableHealth === 'boolean', 'disableHealth', 'a boolean', disableHealth);
  check(c.health === undefined || isObject(c.health), 'health', 'an object', c.health);
  const health = (c.health ?? {}) as Record<string, unknown>;
  const docs = resolveDocs(c.docs, serviceName as string, env as Env);
  const bodyLimit = c.bodyLimit === undefined ? DEFAULTS.bodyLimit : c.bodyLimit;
  check(
    Number.isSafeInteger(bodyLimit) && (bodyLimit as number) > 0,
    'bodyLimit',
    'a positive integer (bytes)',
    bodyLimit,
  );
  const requestTimeoutMs = timeoutMs(
    c.requestTimeoutMs,
    'requestTimeoutMs',
    DEFAULTS.requestTimeoutMs,
  );
  const headersTimeoutMs = timeoutMs(
    c.headersTimeoutMs,
    'headersTimeoutMs',
    DEFAULTS.headersTimeoutMs,
  );
  // Node refuses a server whose headers may take longer than the whole request.
  check(
    headersTimeoutMs <= requestTimeoutMs,
    'headersTimeoutMs',
    `at most requestTimeoutMs (${requestTimeoutMs})`,
    headersTimeoutMs,
  );
  return {
    serviceName: serviceName as string,
    port: port as number,
    env: env as Env,
    envFrom,
    host,
    version: optionalString(c.version, 'version', true) ?? docs.version,
    disableHealth: disableHealth as boolean,
    docs,
    health: {
      timeoutMs: timeoutMs(health.timeoutMs, 'health.timeoutMs', DEFAULTS.health.timeoutMs),
      cacheMs: delayMs(health.cacheMs, 'health.cacheMs', DEFAULTS.health.cacheMs),
    },
    bodyLimit: bodyLimit as number,
    shutdownTimeoutMs: timeoutMs(
      c.shutdownTimeoutMs,
      'shutdownTimeoutMs',
      DEFAULTS.shutdownTimeoutMs,
    ),
    drainDelayMs: delayMs(c.drainDelayMs, 'drainDelayMs', DEFAULTS.drainDelayMs),
    sendTimeoutMs: timeoutMs(c.sendTimeoutMs, 'sendTimeoutMs', DEFAULTS.sendTimeoutMs),
    keepAliveTimeoutMs: timeoutMs(
      c.keepAliveTimeoutMs,
      'keepAliveTimeoutMs',
      DEFAULTS.keepAliveTimeoutMs,
    ),
    requestTimeoutMs,
    headersTimeoutMs,
    isProduction: env === 'production',
  };
}
