/**
 * Routes a feature mounts itself: a route built with a mounter (a WebSocket route) is not
 * mounted as an HTTP route; the engine hands every route of one mounter to it at once, with the
 * runtime, the app's middleware and the answer path. The extension point through which the
 * engine mounts a feature's routes without importing it.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { AppRuntime } from '../routing/runtime.js';
import type { RouteEntry } from '../routing/table.js';
import type { Middleware, RouteDef } from '../routing/types.js';
import type { AnswerPath } from './answer.js';

/** What a mounter is given besides its routes. */
export interface RouteMountPlan {
  /** What every request of the app reads. */
  readonly runtime: AppRuntime;
  /** The app-wide middleware (a route's chain is `chainOf(entry, appMiddleware)`). */
  readonly appMiddleware: readonly Middleware[];
  /** The app's answer path. */
  readonly answerPath: AnswerPath;
}

/** Mounts the routes built with it, all together. */
export interface RouteMounter {
  /** Adds `entries` to `fastify`; called once, with every route of this mounter. */
  mount(fastify: FastifyInstance, entries: readonly RouteEntry[], plan: RouteMountPlan): void;
}

const mounters = new WeakMap<RouteDef, RouteMounter>();

/** Marks `def` as mounted by `mounter` instead of as an HTTP route. */
export function mountWith(def: RouteDef, mounter: RouteMounter): void {
  mounters.set(def, mounter);
}

/** The mounter of `def`, or undefined for an HTTP route. */
export function mounterOf(def: RouteDef): RouteMounter | undefined {
  return mounters.get(def);
}
