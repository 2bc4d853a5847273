import type { App } from '../app.js';

/**
 * A unit of a service that registers its own controllers, health checkers and hooks.
 * `register` must register synchronously. Used on a group, its routes get the group's
 * prefix and middleware; its app-wide calls still reach the app.
 */
export interface Module {
  /** Registers the module's parts on the app. */
  register(app: App): void;
}
