import { describe, expect, it } from 'vitest';
import { importPeer } from '../../src/auth/peer.js';

describe('importPeer', () => {
  it('names the package and the install command when the package is not installed', async () => {
    const load = () => import('keelson-no-such-package' as string);

    await expect(importPeer('keelson-no-such-package', 'keelson/auth', load)).rejects.toThrow(
      "keelson/auth needs the package 'keelson-no-such-package', an optional peer dependency: npm install keelson-no-such-package",
    );
  });

  it('passes on any other failure unchanged', async () => {
    const failure = new Error('broken inside');
    await expect(importPeer('jose', 'keelson/auth', () => Promise.reject(failure))).rejects.toBe(
      failure,
    );
  });

  it('returns the module when it loads', async () => {
    const jose = await importPeer('jose', 'keelson/auth', () => import('jose'));
    expect(typeof jose.jwtVerify).toBe('function');
  });
});

describe('keelson/auth without jose', () => {
  it('fails to import with an error naming npm install jose', async () => {
    const { execFile } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const hook = fileURLToPath(new URL('./fixtures/no-jose.mjs', import.meta.url));
    const entry = new URL('../../src/auth/index.ts', import.meta.url).href;
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          hook,
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(entry)})`,
        ],
        (err, _stdout, stderr) => resolve({ code: err ? (child.exitCode ?? 1) : 0, stderr }),
      );
    });

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('npm install jose');
  });
});
