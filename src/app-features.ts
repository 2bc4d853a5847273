/**
 * The features the App wires from its options and methods (cookies, compression, static files),
 * reached through this table so that the core never imports them: `src/features.ts` fills the
 * table when the package entry hands out the App. Only types of the features are named here.
 * @module
 */
import type { AppOptions } from './app-options.js';
import type { ResolvedConfig } from './config/index.js';
import type { CookieJar } from './engine/bun/cookie-jar.js';
import type { EnginePlugin } from './engine/plugin.js';
import type { StaticMount, StaticOptions } from './static/index.js';

/** What the App asks of its features. */
export interface AppFeatures {
  /** The engine plugins the options ask for, in order. @throws TypeError naming a bad option */
  enginePlugins(options: AppOptions, config: ResolvedConfig): EnginePlugin[];
  /** Checks the arguments of `app.static()`. @throws TypeError naming the bad one */
  staticMount(prefix: string, dir: string, options?: StaticOptions): StaticMount;
  /** The plugin that serves the static mounts; undefined when there are none. */
  staticPlugin(mounts: readonly StaticMount[]): EnginePlugin | undefined;
  /** Cookies for the Bun engine, from the `cookies` option. @throws TypeError on a bad secret */
  cookieJar(options: AppOptions, config: ResolvedConfig): CookieJar;
}

let installed: AppFeatures | undefined;

/** Fills the table; called once, by `src/features.ts`. */
export function installAppFeatures(features: AppFeatures): void {
  installed = features;
}

/** The table. @throws Error when nothing filled it (the App was imported past the entry) */
export function appFeatures(): AppFeatures {
  if (installed === undefined) {
    throw new Error("Keelson's features are not installed: import App from 'keelson'");
  }
  return installed;
}
