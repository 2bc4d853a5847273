/**
 * The lifecycle of an App: listen, signals, readiness, drain, shutdown hooks, final flush.
 * @module
 */
export { ConnectionTracker, type ConnectionTrackerOptions } from './connections.js';
export type { Connections, EngineServer } from './engine-server.js';
export { runHooks } from './hooks.js';
export { Lifecycle, type LifecycleOptions } from './lifecycle.js';
export {
  flushBy,
  gracefulShutdown,
  type ShutdownOutcome,
  type ShutdownPlan,
  shutdownShares,
} from './shutdown.js';
