import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// VERSION is read from the package.json one folder above the module, so src/ and dist/ both
// report the version the package was published with, and no second copy of it can go stale.
describe('VERSION', () => {
  it('is the version of the package.json beside the folder it runs from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-version-'));
    try {
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '9.8.7-test' }));
      cpSync(new URL('../src/version.ts', import.meta.url), join(dir, 'dist/version.ts'));
      const url = pathToFileURL(join(dir, 'dist/version.ts')).href;
      const { VERSION } = (await import(/* @vite-ignore */ url)) as { VERSION: string };
      expect(VERSION).toBe('9.8.7-test');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
