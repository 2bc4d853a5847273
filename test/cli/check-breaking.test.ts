import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = 'test/cli/fixtures/app.ts';

let dir: string;
// biome-ignore lint/suspicious/noExplicitAny: the saved document is plain JSON, changed freely.
let saved: Record<string, any>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keelson-breaking-'));
  const written = await runCliIn(['openapi', APP, '--out', join(dir, 'openapi.json')], ROOT);
  expect(written.code).toBe(0);
  saved = JSON.parse(await readFile(join(dir, 'openapi.json'), 'utf8'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `base` and runs `keelson openapi <fixture> --check-breaking <it>`. */
async function check(base: object) {
  const file = join(dir, 'base.json');
  await writeFile(file, JSON.stringify(base));
  return runCliIn(['openapi', APP, '--check-breaking', file], ROOT);
}

const gone = { operationId: 'gone', responses: { 200: { description: 'OK' } } };

describe('keelson openapi --check-breaking', () => {
  it('exits 0 with nothing on stdout when the document is the saved one', async () => {
    expect(await check(saved)).toMatchObject({
      code: 0,
      out: '',
      err: expect.stringMatching(/^no change against /),
    });
  });

  it('exits 1 listing a breaking change first, then the non-breaking ones, one per line', async () => {
    const base = structuredClone(saved);
    base.paths['/gone'] = { get: gone };
    // Found first (it is the first path), listed after the break.
    base.paths['/ping'].get.responses[404] = { description: 'Not Found' };
    delete base.paths['/things-list'];
    const { code, out, err } = await check(base);
    expect(code).toBe(1);
    expect(out.split('\n')).toEqual([
      'BREAKING  GET /gone (gone)  #/paths/~1gone/get  operation removed',
      'non-breaking  GET /ping (ping)  #/paths/~1ping/get/responses/404  response 404 removed (still covered by 4XX)',
      'non-breaking  GET /things-list (getThingsList)  #/paths/~1things-list/get  operation added',
      'non-breaking  HEAD /things-list (headThingsList)  #/paths/~1things-list/head  operation added',
    ]);
    expect(err).toMatch(/^1 breaking change, 3 others against .*base\.json$/);
  });

  it('exits 0 on a break the current document marks by raising the major version', async () => {
    const base = structuredClone(saved);
    base.info.version = '0.9.0';
    base.paths['/gone'] = { get: gone };
    const { code, out } = await check(base);
    expect(code).toBe(0);
    expect(out).toBe(
      'breaking (accepted: info.version 0.9.0 → 1.0.0)  GET /gone (gone)  #/paths/~1gone/get  operation removed',
    );
  });

  it('exits 1 naming the file when the base document cannot be read', async () => {
    const missing = await runCliIn(
      ['openapi', APP, '--check-breaking', join(dir, 'nope.json')],
      ROOT,
    );
    expect(missing).toMatchObject({
      code: 1,
      err: expect.stringContaining('cannot read the base document'),
    });
    await writeFile(join(dir, 'not-openapi.json'), '[]');
    const wrong = await runCliIn(
      ['openapi', APP, '--check-breaking', join(dir, 'not-openapi.json')],
      ROOT,
    );
    expect(wrong).toMatchObject({
      code: 1,
      err: expect.stringContaining('is not an OpenAPI document'),
    });
  });

  it('is in the help of keelson openapi, and wants a file', async () => {
    const help = await runCliIn(['openapi', '--help'], ROOT);
    expect(help.out).toContain('--check-breaking <base.json>');
    const noValue = await runCliIn(['openapi', APP, '--check-breaking'], ROOT);
    expect(noValue.code).toBe(2);
  });
});
