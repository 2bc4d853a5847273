/**
 * The engine under an App: Fastify created with Keelson's server options, then the pipeline
 * (CORS, request hooks, response headers, error handlers) and the routes of the table mounted.
 * @module
 */

import { createRequire } from 'node:module';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { ResolvedConfig } from '../config/index.js';
import { installJsonParser } from '../request/body.js';
import { decorateRequestState } from '../request/request-state.js';
import { bodyReaderOf } from '../routing/body-reader.js';
import { mountRoute } from '../routing/mount.js';
import type { AppRuntime } from '../routing/runtime.js';
import type { RouteEntry } from '../routing/table.js';
import type { Middleware } from '../routing/types.js';
import type { AnswerPath } from './answer.js';
import { edgeHandlers } from './client-error.js';
import { continueOnRead } from './continue.js';
import { installCors } from './cors.js';
import { installErrorHandlers, methodIndex } from './errors.js';
import { installRequestHooks } from './hooks.js';
import type { EnginePlugin } from './plugin.js';
import { requestIdGenerator } from './request-id.js';
import { installResponseHeaders } from './response-headers.js';
import { mounterOf, type RouteMounter } from './route-mounter.js';
import type { SecurityHeaders } from './security-headers.js';

/** Which proxies to trust for `X-Forwarded-*`: Fastify's `trustProxy`. */
export type TrustProxy = boolean | string | string[];

/** What the engine is created with besides the config. */
export interface EngineOptions {
  /** The app's answer path. */
  readonly answerPath: AnswerPath;
  /** Fastify's `trustProxy`. */
  readonly trustProxy: TrustProxy | undefined;
}

/** Fastify, loaded when an app on the Fastify engine is created (the Bun engine never loads it). */
function loadFastify(): typeof import('fastify').default {
  return createRequire(import.meta.url)('fastify') as typeof import('fastify').default;
}

/** Creates the Fastify instance with the server options the config gives. */
export function createEngine(config: ResolvedConfig, options: EngineOptions): FastifyInstance {
  const { answerPath } = options;
  const Fastify = loadFastify();
  const edges = edgeHandlers(answerPath);
  const fastify = Fastify({
    logger: false,
    bodyLimit: config.bodyLimit,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs },
    clientErrorHandler: edges.handleClientError,
    frameworkErrors: edges.handleFrameworkError,
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    ...(answerPath.requestIdHeader
      ? { genReqId: requestIdGenerator(answerPath.requestIdHeader) }
      : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  });
  fastify.server.on('checkExpectation', edges.handleExpectation);
  continueOnRead(fastify.server);
  decorateRequestState(fastify);
  installJsonParser(fastify);
  return fastify;
}

/** What mounting needs: the pipeline's parts and the route table. */
export interface MountPlan {
  readonly cors: FastifyCorsOptions | false;
  readonly runtime: AppRuntime;
  readonly answerPath: AnswerPath;
  readonly security: SecurityHeaders;
  readonly isDraining: () => boolean;
  readonly routes: readonly RouteEntry[];
  readonly appMiddleware: readonly Middleware[];
  /** The default `timeoutMs` of the app's own routes; none when undefined. */
  readonly timeoutMs?: number | undefined;
  /** Registered after the error handlers and before the routes, in order. */
  readonly plugins: readonly EnginePlugin[];
}

/** Installs the pipeline and mounts every route, then readies the engine. */
export async function mountEngine(fastify: FastifyInstance, plan: MountPlan): Promise<void> {
  const { answerPath } = plan;
  const allowed = methodIndex(plan.routes);
  if (plan.cors !== false) await installCors(fastify, plan.cors, plan.routes, answerPath, allowed);
  installRequestHooks(fastify, plan.runtime, answerPath);
  installResponseHeaders(
    fastify,
    { security: plan.security, isDraining: plan.isDraining },
    answerPath,
  );
  installErrorHandlers(fastify, allowed, answerPath);
  for (const plugin of plan.plugins) await plugin(fastify);
  // Explicit HEAD routes go first: the engine then skips the HEAD it derives from a GET.
  const ordered = [
    ...plan.routes.filter((e) => e.method === 'HEAD'),
    ...plan.routes.filter((e) => e.method !== 'HEAD'),
  ];
  // Routes a feature mounts itself (WebSocket routes): each mounter once, with all its routes.
  const byMounter = new Map<RouteMounter, RouteEntry[]>();
  for (const entry of ordered) {
    const mounter = mounterOf(entry.def);
    if (mounter) byMounter.set(mounter, [...(byMounter.get(mounter) ?? []), entry]);
  }
  const { runtime, appMiddleware } = plan;
  for (const [mounter, entries] of byMounter) {
    mounter.mount(fastify, entries, { runtime, appMiddleware, answerPath });
  }
  for (const entry of ordered) {
    if (mounterOf(entry.def)) continue;
    const mount = (into: FastifyInstance) =>
      mountRoute(into, entry, plan.runtime, plan.appMiddleware, plan.timeoutMs);
    const reader = bodyReaderOf(entry.def.options.body);
    if (reader) reader.mount(fastify, mount);
    else mount(fastify);
  }
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

export type { EnginePlugin } from './plugin.js';
