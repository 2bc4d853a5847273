#!/usr/bin/env node
// Fails when a package in package-lock.json runs a script at install time that this project has
// not allowed: no dependency of a service built on Keelson may run one, and the development
// tree may run only the ones listed here, each with its reason. `npm ci` in CI runs it.
import { readFileSync } from 'node:fs';

/** Development packages whose install script is allowed, and why. */
export const ALLOWED = {
  // Its postinstall only checks that the platform binary (an optional dependency) is in place.
  esbuild: 'tsx (tests and npm start) depends on it; the binary comes as an optional package',
  // BullMQ's msgpack speed-up; it falls back to JavaScript when the native build is absent.
  'msgpackr-extract': 'optional native build for bullmq (a peer); falls back to JavaScript',
};

/** The packages with an install script that is not allowed: `{ name, dev }` each. */
export function disallowed(lock) {
  const out = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!entry.hasInstallScript || path === '') continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (entry.dev && Object.hasOwn(ALLOWED, name)) continue;
    out.push({ name, dev: entry.dev === true });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
  const bad = disallowed(lock);
  for (const { name, dev } of bad) {
    console.error(
      `${name} runs an install script and is not allowed${dev ? ' (development)' : ' (a dependency users install)'}`,
    );
  }
  if (bad.length > 0) process.exit(1);
  console.log('install scripts: only the allowed development ones');
}
