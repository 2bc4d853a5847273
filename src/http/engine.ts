/**
 * The engine under an App: Fastify created with Keelson's server options, then the pipeline
 * (CORS, request hooks, response headers, error handlers) and the routes of the table mounted.
 * @module
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ResolvedConfig } from '../config/index.js';
import type { RequestRuntime } from '../routing/context.js';
import { mountRoute } from '../routing/mount.js';
import type { RouteEntry } from '../routing/table.js';
import type { Middleware } from '../routing/types.js';
import { handleClientError, handleFrameworkError } from './client-error.js';
import { installErrorHandlers } from './errors.js';
import { type HookRuntime, installRequestHooks } from './hooks.js';
import { decorateRequestState } from './request-state.js';
import { installResponseHeaders } from './response-headers.js';
import type { SecurityHeaders } from './security-headers.js';

/** Creates the Fastify instance with the server options the config gives. */
export function createEngine(config: ResolvedConfig): FastifyInstance {
  const fastify = Fastify({
    logger: false,
    bodyLimit: config.bodyLimit,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs },
    clientErrorHandler: handleClientError,
    frameworkErrors: handleFrameworkError,
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  decorateRequestState(fastify);
  return fastify;
}

/** What mounting needs: the pipeline's parts and the route table. */
export interface MountPlan {
  readonly cors: FastifyCorsOptions | false;
  readonly runtime: HookRuntime & RequestRuntime;
  readonly security: SecurityHeaders;
  readonly isDraining: () => boolean;
  readonly routes: readonly RouteEntry[];
  readonly appMiddleware: readonly Middleware[];
  /** The default `timeoutMs` of the app's own routes; none when undefined. */
  readonly timeoutMs?: number | undefined;
}

/** Installs the pipeline and mounts every route, then readies the engine. */
export async function mountEngine(fastify: FastifyInstance, plan: MountPlan): Promise<void> {
  if (plan.cors !== false) await fastify.register(cors, plan.cors);
  installRequestHooks(fastify, plan.runtime);
  installResponseHeaders(fastify, { security: plan.security, isDraining: plan.isDraining });
  installErrorHandlers(fastify, plan.routes);
  // Explicit HEAD routes go first: the engine then skips the HEAD it derives from a GET.
  const ordered = [
    ...plan.routes.filter((e) => e.method === 'HEAD'),
    ...plan.routes.filter((e) => e.method !== 'HEAD'),
  ];
  for (const entry of ordered)
    mountRoute(fastify, entry, plan.runtime, plan.appMiddleware, plan.timeoutMs);
  await fastify.ready();
}

/** The URL the engine is bound to; an unspecified address reads as `localhost`. */
export function boundUrl(fastify: FastifyInstance): string {
  const addr = fastify.server.address();
  if (!addr || typeof addr === 'string') return String(addr);
  const host =
    addr.address === '0.0.0.0' || addr.address === '::'
      ? 'localhost'
      : addr.family === 'IPv6'
        ? `[${addr.address}]`
        : addr.address;
  return `http://${host}:${addr.port}`;
}
