import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { disallowed } from '../scripts/check-install-scripts.mjs';
// @ts-expect-error a plain .mjs script without types
import { missingEntries } from '../scripts/complete-lockfile.mjs';

describe('package-lock.json', () => {
  it('names every optional platform package, so that npm ci accepts it on a fresh machine', () => {
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
    const missing = Object.keys(missingEntries(lock) as Record<string, unknown>);
    expect(missing, 'run `node scripts/complete-lockfile.mjs` after npm install').toEqual([]);
  });

  it('has no install script but the allowed development ones (no telemetry in a service image)', () => {
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
    expect(disallowed(lock)).toEqual([]);
    const scarf = { packages: { 'node_modules/@scarf/scarf': { hasInstallScript: true } } };
    expect(disallowed(scarf)).toEqual([{ name: '@scarf/scarf', dev: false }]);
    const esbuild = { packages: { 'node_modules/esbuild': { hasInstallScript: true } } };
    expect(disallowed(esbuild), 'allowed in development only').toEqual([
      { name: 'esbuild', dev: false },
    ]);
  });
});
