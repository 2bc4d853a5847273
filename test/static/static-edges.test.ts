import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { App, get } from '../../src/index.js';
import { staticMount } from '../../src/static/index.js';
import { memoryLogger } from '../app/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'keelson-static-edges-'));
writeFileSync(join(dir, 'hello.txt'), 'hello from the root\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('app.static edges', () => {
  it('serves a directory at the root prefix "/" next to the routes', async () => {
    const app = new App({ serviceName: 'svc', logger: memoryLogger().logger });
    app.static('/', dir);
    app.addRoutes(get('/api', () => ({ ok: true })));
    try {
      const file = await app.inject('/hello.txt');
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe('hello from the root\n');
      expect((await app.inject('/api')).json()).toEqual({ ok: true });
      const missing = await app.inject('/missing.txt');
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    } finally {
      await app.close();
    }
  });

  it('keeps the root prefix "/" as it is and drops the trailing slash of any other', () => {
    expect(staticMount('/', dir).prefix).toBe('/');
    expect(staticMount('/a/', dir).prefix).toBe('/a');
    expect(staticMount('/a', dir).prefix).toBe('/a');
  });

  it('refuses a prefix or a directory that is not a non-empty string, naming it', () => {
    for (const prefix of [undefined, 5, null]) {
      expect(() => staticMount(prefix as never, dir), String(prefix)).toThrow(
        `static prefix must start with '/', got ${JSON.stringify(prefix)}`,
      );
    }
    for (const bad of ['', undefined, 7]) {
      expect(() => staticMount('/a', bad as never), String(bad)).toThrow(
        `static dir must be a directory path, got ${JSON.stringify(bad)}`,
      );
    }
  });
});
