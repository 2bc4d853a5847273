/**
 * Importing a project's App without listening, for `keelson routes` and `keelson openapi`.
 * @module
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { App } from '../app.js';
import { onBun } from '../runtime.js';

/** The entry contract: what a module must export for the commands to find its App. */
const HOW =
  'export the App as `app` or as the default export, or a `createApp()` that takes no arguments and returns it (without calling listen)';

type TsImport = (specifier: string, parent: string) => Promise<Record<string, unknown>>;

// TypeScript entries are loaded with the project's own tsx on Node.js, so the command needs no
// loader flag.
async function tsImporter(cwd: string): Promise<TsImport | undefined> {
  let pkgFile: string;
  try {
    pkgFile = createRequire(join(cwd, 'package.json')).resolve('tsx/package.json');
  } catch {
    return undefined;
  }
  // The ESM build, as an `import` would pick it: require() resolution gives the CJS one.
  const pkg = JSON.parse(await readFile(pkgFile, 'utf8')) as {
    exports?: Record<string, { import?: { default?: string } }>;
  };
  const file = pkg.exports?.['./esm/api']?.import?.default;
  if (!file) return undefined;
  const mod = (await import(pathToFileURL(join(dirname(pkgFile), file)).href)) as {
    tsImport?: TsImport;
  };
  return mod.tsImport;
}

function isApp(value: unknown): value is App {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as App).ready === 'function' &&
    typeof (value as App).openapi === 'function' &&
    Array.isArray((value as App).routes)
  );
}

/**
 * Imports `entry` (relative to `cwd`) and returns its App, built (`ready()`) but not listening.
 * Throws an Error saying what was expected when the file or the App is missing.
 */
export async function loadApp(cwd: string, entry: string): Promise<App> {
  const file = resolve(cwd, entry);
  if (!existsSync(file))
    throw new Error(`${file} does not exist: pass the file that builds the App`);
  // Loading the App starts it, and a database module opens and migrates at start: the App gets a
  // database in memory, so inspecting it never opens, migrates or changes the service's data.
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = 'memory://';
  // The App's own log (its database's start line) goes to stderr: stdout is the command's.
  process.env.KEELSON_LOG_FD = '2';
  try {
    return await importApp(cwd, entry, file);
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}

async function importApp(cwd: string, entry: string, file: string): Promise<App> {
  const url = pathToFileURL(file).href;
  let mod: Record<string, unknown>;
  // Bun runs TypeScript itself (and cannot take tsx's loader hooks).
  if (/\.[cm]?ts$/.test(file) && !onBun()) {
    const tsImport = await tsImporter(cwd);
    if (!tsImport) {
      throw new Error(`loading ${entry} needs tsx in the project: npm install --save-dev tsx`);
    }
    mod = await tsImport(url, pathToFileURL(join(cwd, 'package.json')).href);
  } else {
    mod = (await import(url)) as Record<string, unknown>;
  }
  let app = [mod.app, mod.default].find(isApp);
  for (const factory of [mod.createApp, mod.default]) {
    if (app) break;
    if (typeof factory === 'function') {
      const made = await callFactory(entry, factory as (...args: unknown[]) => unknown);
      if (isApp(made)) app = made;
    }
  }
  if (!app) throw new Error(`${entry} exports no App: ${HOW}`);
  await app.ready();
  return app;
}

// The commands call a factory with no arguments: one that needs some fails inside, far from the
// cause, so its failure is wrapped in the contract (a factory whose arguments are optional works).
async function callFactory(entry: string, factory: (...args: unknown[]) => unknown) {
  try {
    return await factory();
  } catch (err) {
    const name = factory.name || 'the default export';
    const takes = factory.length > 0 ? ` (it declares ${factory.length} parameter(s))` : '';
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `${entry}: ${name}() threw when called with no arguments${takes}: ${why}\n` +
        `The entry must ${HOW}.`,
      { cause: err },
    );
  }
}
