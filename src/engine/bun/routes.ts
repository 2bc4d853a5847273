/**
 * The route table on the Bun engine: the same router as the Fastify engine (find-my-way, with
 * Fastify's settings), each route compiled by routing's `compileRoute`, HEAD answered for every
 * GET route without a HEAD of its own, and features this engine does not serve refused by name.
 * @module
 */
import fastJson from 'fast-json-stringify';
import FindMyWay from 'find-my-way';
import { type CompiledRoute, compileRoute } from '../../routing/mount.js';
import type { AppRuntime } from '../../routing/runtime.js';
import type { RouteEntry } from '../../routing/table.js';
import type { Middleware } from '../../routing/types.js';
import { refuseOnBunEngine } from '../../runtime.js';
import { mounterOf } from '../route-mounter.js';
import type { Serializer } from './reply.js';

/** One route as the Bun engine serves it. */
export interface BunRoute {
  /** The route's pattern (its label in logs and metrics). */
  readonly pattern: string;
  /** The compiled route. */
  readonly compiled: CompiledRoute;
  /** The serializer of each declared status that has one. */
  readonly serializers: ReadonlyMap<number, Serializer>;
}

/** Why a URL matched nothing a route can take: Fastify's codes for the same cases. */
export interface RouteProblem {
  readonly problem: 'FST_ERR_BAD_URL' | 'FST_ERR_MAX_PARAM_LENGTH';
}

/** What the router finds for a request. */
export interface Found {
  readonly store: BunRoute | RouteProblem;
  readonly params: Record<string, string>;
  readonly searchParams: Record<string, unknown>;
}

/** The router of the Bun engine. */
export interface BunRouter {
  /** The route of `method` and `target` (path and query), or null. */
  find(method: string, target: string): Found | null;
}

const badUrl: RouteProblem = { problem: 'FST_ERR_BAD_URL' };
const longParam: RouteProblem = { problem: 'FST_ERR_MAX_PARAM_LENGTH' };
const noop = () => {};

function serializersOf(compiled: CompiledRoute): Map<number, Serializer> {
  const out = new Map<number, Serializer>();
  for (const [status, schema] of Object.entries(compiled.serializers)) {
    out.set(Number(status), fastJson(schema) as Serializer);
  }
  return out;
}

function refuseUnserved(entry: RouteEntry, compiled: CompiledRoute): void {
  const where = `${entry.method} ${entry.path}`;
  if (compiled.readsOwnBody) refuseOnBunEngine(`Uploads, multipart bodies (${where})`);
}

/** Compiles every route of the table into a router. @throws naming a route or a refused feature */
export function bunRouter(
  routes: readonly RouteEntry[],
  runtime: AppRuntime,
  appMiddleware: readonly Middleware[],
  timeoutMs: number | undefined,
): BunRouter {
  const router = FindMyWay({
    maxParamLength: 100,
    defaultRoute: noop,
    onBadUrl: noop,
    onMaxParamLength: noop,
  });
  const explicitHead = new Set(routes.filter((r) => r.method === 'HEAD').map((r) => r.path));
  for (const entry of routes) {
    if (mounterOf(entry.def)) refuseOnBunEngine(`WebSocket routes (${entry.method} ${entry.path})`);
    const compiled = compileRoute(entry, runtime, appMiddleware, timeoutMs);
    refuseUnserved(entry, compiled);
    const route: BunRoute = { pattern: entry.path, compiled, serializers: serializersOf(compiled) };
    router.on(entry.method as 'GET', entry.path, noop, route);
    if (entry.method === 'GET' && !explicitHead.has(entry.path)) {
      router.on('HEAD', entry.path, noop, route);
    }
  }
  return {
    find(method, target) {
      const found = router.find(method as 'GET', target);
      if (found === null) return null;
      const store = found.store as BunRoute | null;
      if (store !== null) return found as unknown as Found;
      // find-my-way's handles for a bad URL and an over-long parameter carry no store.
      return { store: whichProblem(target), params: {}, searchParams: {} };
    },
  };
}

// find-my-way reports both with a store-less handle: an over-long parameter decodes as a URL.
function whichProblem(target: string): RouteProblem {
  try {
    decodeURIComponent(target.split('?')[0]!);
    return longParam;
  } catch {
    return badUrl;
  }
}
