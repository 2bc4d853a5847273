/**
 * AppOptions: what `new App()` takes besides KConfig, each engine-level option documented.
 * @module
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import type { HelmetOptions } from 'helmet';
import type { CompressOptions } from './compress/index.js';
import type { KConfig, ResolvedConfig } from './config/index.js';
import type { CookiesOptions } from './cookies/index.js';
import type { DevPanelOptions } from './devpanel/index.js';
import type { TrustProxy } from './engine/engine.js';
import type { RequestIdOptions } from './engine/request-id.js';
import type { ErrorsOptions } from './errors/error-body.js';
import type { Logger } from './logger/index.js';

/** Everything `new App()` takes: the config of SPEC.md plus the engine-level options. */
export interface AppOptions extends KConfig {
  /** The logger the app writes to. @default newLogger(env === 'production') */
  logger?: Logger;
  /** CORS options for @fastify/cors, or false to leave CORS out. @default { origin: '*' } */
  cors?: FastifyCorsOptions | false;
  /**
   * Security headers. By default: OWASP's API set (a `default-src 'none'; frame-ancestors 'none'`
   * CSP, HSTS, nosniff, `X-Frame-Options: DENY`) on answers, and helmet's set on the docs page.
   * helmet options: helmet's set with those options on every answer. `false`: none.
   */
  helmet?: HelmetOptions | false;
  /** The request log. `exclude`: paths (no query) never logged, e.g. probes and scrapes; still counted by metrics. @default {} */
  requestLog?: { exclude?: readonly string[] };
  /**
   * Shapes every error answer, whoever produced it (handler, middleware, 404, 405, 413, 415, the
   * parser): `body(problem, c)` returns the body, `contentType` its media type, `schema` what the
   * document shows. @default problem+json (RFC 9457)
   */
  errors?: ErrorsOptions;
  /**
   * Request ids: a valid incoming `x-request-id` is kept, else a UUID is made; every answer
   * carries it, as do JSON request-log entries and problem bodies. `false` turns them off.
   * @default { header: 'x-request-id' }
   */
  requestId?: RequestIdOptions | false;
  /**
   * Which proxies to trust for `X-Forwarded-For/-Proto/-Host` (Fastify's `trustProxy`): `true`,
   * an address, a CIDR or a list of them. @default undefined (none)
   */
  trustProxy?: TrustProxy;
  /**
   * The default `timeoutMs` of every route (a route's own option wins): when it passes,
   * `c.signal` aborts and the client gets 504 `TIMEOUT`. @default none
   */
  timeoutMs?: number;
  /**
   * The dev panel at `/_keelson`: live requests and logs, routes, health, jobs, masked config.
   * Never served in production unless `{ forceInProduction: true }`; answers only clients on
   * this machine under a local Host (`allowRemote`, `hosts`). @default env === 'development'
   */
  devPanel?: boolean | DevPanelOptions;
  /** Cookie settings: `secret` (one, or several to rotate) signs `{ signed: true }` cookies. */
  cookies?: CookiesOptions;
  /** Response compression (br, gzip, deflate by `Accept-Encoding`). @default false */
  compress?: boolean | CompressOptions;
  /**
   * The engine: `'fastify'` (on Node and on Bun) or `'bun'` (`Bun.serve`, on Bun only; cookies,
   * uploads, event streams, WebSockets, compression, static files and the dev panel are refused
   * there by name). @default 'fastify'
   */
  engine?: 'fastify' | 'bun';
}

const ENGINE_OPTIONS = new Set([
  'logger',
  'cors',
  'helmet',
  'devPanel',
  'timeoutMs',
  'errors',
  'requestId',
  'trustProxy',
  'cookies',
  'compress',
  'requestLog',
  'engine',
]);

/** A service's own settings passed alongside KConfig, for the dev panel's config view. */
export function extraOptions(options: AppOptions, config: ResolvedConfig): Record<string, unknown> {
  const known = new Set(Object.keys(config));
  return Object.fromEntries(
    Object.entries(options).filter(([k]) => !known.has(k) && !ENGINE_OPTIONS.has(k)),
  );
}

/** The set of `requestLog.exclude` paths; undefined when none. @throws TypeError on a bad path */
export function excludedPaths(
  paths: readonly string[] | undefined,
): ReadonlySet<string> | undefined {
  if (paths === undefined || paths.length === 0) return undefined;
  for (const p of paths) {
    if (typeof p !== 'string' || !p.startsWith('/')) {
      throw new TypeError(
        `requestLog.exclude: each path should start with '/', instead got ${JSON.stringify(p)}`,
      );
    }
  }
  return new Set(paths);
}
