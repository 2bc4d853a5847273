import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliIn } from './run-cli.js';

// `keelson openapi --version <name>`: the document of one API version.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = 'test/cli/fixtures/versioned-app.ts';

describe('keelson openapi --version', () => {
  it('writes the document of that version: its routes and those of no version', async () => {
    const { code, out } = await runCliIn(['openapi', ENTRY, '--version', 'v2'], ROOT);
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.info.title).toBe('versioned (v2)');
    expect(Object.keys(doc.paths)).toEqual([
      '/ping',
      '/v2/things',
      '/health',
      '/health/ready',
      '/health/live',
    ]);
    const v1 = JSON.parse((await runCliIn(['openapi', ENTRY, '--version', 'v1'], ROOT)).out);
    expect(v1.paths['/v1/things'].get.deprecated).toBe(true);
  });

  it('fails with exit 1 naming the versions there are for one there is not', async () => {
    expect(await runCliIn(['openapi', ENTRY, '--version', 'v9'], ROOT)).toMatchObject({
      code: 1,
      err: 'keelson openapi: no API version "v9"; the versions are: "v1", "v2"',
    });
  });
});
