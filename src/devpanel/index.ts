/**
 * The dev panel: one page at `/_keelson`, served by the App in development, with the live
 * requests and log lines, the route table, the health report, the scheduler's jobs and the
 * config with secrets masked.
 * @module
 */
import { isIP } from 'node:net';
import { ConfigError, type Env, type ResolvedConfig } from '../config/index.js';
import type { Scheduler } from '../contracts.js';
import type { OpenApiDocument } from '../docs/openapi.js';
import { routeRows } from '../docs/route-table.js';
import type { HealthReport } from '../health/index.js';
import type { RouteEntry } from '../routing/table.js';
import type { Middleware, RouteDef } from '../routing/types.js';
import type { PanelFeed } from './feed.js';
import { maskSecrets } from './mask.js';
import { panelRoutes } from './routes.js';

export { PANEL_PATH, PanelFeed } from './feed.js';

/** The `devPanel` option of an App, when more than on/off is needed. */
export interface DevPanelOptions {
  /** Serve the panel. @default env === 'development' */
  enabled?: boolean;
  /**
   * Serve it in production as well. Without this the panel is never served in production, even
   * with `enabled: true`: it shows logs, routes and config to anyone who can reach the port.
   * @default false
   */
  forceInProduction?: boolean;
  /** How many finished requests the panel keeps. @default 100 */
  maxRequests?: number;
  /** How many log lines the panel keeps. @default 200 */
  maxLogLines?: number;
  /**
   * Serve clients that are not on this machine (the socket's peer is not loopback). Without it a
   * panel on `0.0.0.0` answers 403 to every other machine. @default false
   */
  allowRemote?: boolean;
  /**
   * Host names the panel answers under besides IP addresses, `localhost` and `*.localhost`
   * (and `host` when it is a name): any other Host is refused, which stops DNS rebinding.
   * @example ['dev.internal']
   */
  hosts?: readonly string[];
}

/** The panel's settings once resolved: how much it keeps, who it answers. */
export interface ResolvedDevPanel {
  readonly maxRequests: number;
  readonly maxLogLines: number;
  readonly allowRemote: boolean;
  readonly hosts: readonly string[];
}

function limit(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 100_000) {
    throw new ConfigError(`devPanel.${field}`, 'an integer in 1..100000', value);
  }
  return value as number;
}

/**
 * Whether and how the panel is served: on by default in development only, and in production
 * only with `forceInProduction`. Undefined when it is off. Throws a ConfigError on a bad value.
 */
export function resolveDevPanel(
  option: boolean | DevPanelOptions | undefined,
  env: Env,
): ResolvedDevPanel | undefined {
  if (
    option !== undefined &&
    typeof option !== 'boolean' &&
    (typeof option !== 'object' || option === null)
  ) {
    throw new ConfigError('devPanel', 'a boolean or an object', option);
  }
  const o: DevPanelOptions =
    typeof option === 'object' ? option : option === undefined ? {} : { enabled: option };
  const enabled = o.enabled ?? env === 'development';
  if (!enabled || (env === 'production' && o.forceInProduction !== true)) return undefined;
  if (o.allowRemote !== undefined && typeof o.allowRemote !== 'boolean') {
    throw new ConfigError('devPanel.allowRemote', 'a boolean', o.allowRemote);
  }
  const hosts = o.hosts ?? [];
  if (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string' && /^[^\s:/]+$/.test(h))) {
    throw new ConfigError('devPanel.hosts', 'an array of host names without port', o.hosts);
  }
  return {
    maxRequests: limit(o.maxRequests, 'maxRequests', 100),
    maxLogLines: limit(o.maxLogLines, 'maxLogLines', 200),
    allowRemote: o.allowRemote === true,
    hosts: hosts.map((h) => h.toLowerCase()),
  };
}

/** What the panel reads from the App that serves it. */
export interface DevPanelHost {
  readonly feed: PanelFeed;
  readonly settings: ResolvedDevPanel;
  readonly config: ResolvedConfig;
  /** The App's options beyond KConfig (a service's own settings), shown masked. */
  readonly extraConfig: Readonly<Record<string, unknown>>;
  readonly routes: () => readonly RouteEntry[];
  /** The OpenAPI document, when the docs are on: the route table shows its operation ids. */
  readonly document: () => OpenApiDocument | undefined;
  readonly appMiddleware: readonly Middleware[];
  readonly scheduler: () => Scheduler | undefined;
  readonly health: (signal: AbortSignal) => Promise<Pick<HealthReport, 'status' | 'checks'>>;
  readonly pageHeaders: Readonly<Record<string, string>>;
  readonly shutdownBegun: AbortSignal;
}

function jobsOf(scheduler: Scheduler | undefined): unknown[] | null {
  if (!scheduler?.status) return null;
  return scheduler.status().map((j) => ({
    name: j.name,
    schedule: j.schedule,
    running: j.running,
    runs: j.runs,
    nextRun: j.nextRun?.toISOString() ?? null,
    lastRun: j.lastRun?.toISOString() ?? null,
    lastError:
      j.lastError === undefined ? null : String((j.lastError as Error)?.message ?? j.lastError),
  }));
}

/** The panel's routes for an App. */
export function devPanelRoutes(host: DevPanelHost): RouteDef[] {
  const { config, settings } = host;
  const shown = maskSecrets({ ...host.extraConfig, ...config });
  // A name the app binds to is this machine; an address is answered anyway.
  const bound = isIP(config.host) === 0 ? [config.host.toLowerCase()] : [];
  return panelRoutes({
    access: { allowRemote: settings.allowRemote, hosts: new Set([...settings.hosts, ...bound]) },
    feed: host.feed,
    service: config.serviceName,
    maxRequests: host.settings.maxRequests,
    maxLogLines: host.settings.maxLogLines,
    pageHeaders: host.pageHeaders,
    shutdownBegun: host.shutdownBegun,
    health: host.health,
    state: () => ({
      service: config.serviceName,
      version: config.version,
      env: config.env,
      routes: routeRows(host.routes(), host.appMiddleware, host.document()),
      jobs: jobsOf(host.scheduler()),
      config: shown,
    }),
  });
}
