import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { docsAssets, INIT_SCRIPT } from '../../src/docs/assets.js';
import { get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { openApiProblems } from './valid-openapi.js';

// One OpenAPI document per API version, the version picker on the docs page, and deprecated
// operations in the documents.

const User = z.object({ id: z.number(), name: z.string() });
const UserV2 = z.object({ id: z.number(), displayName: z.string() });

function versionedApp(options: Parameters<typeof testApp>[0] = {}) {
  const { app } = testApp(options);
  app.addRoutes(get('/', { operationId: 'getBanner' }, () => 'hi'));
  app
    .group('/v1', { version: 'v1', deprecated: { sunset: new Date('2027-01-01T00:00:00Z') } })
    .addRoutes(
      get('/users/:id', { responses: { 200: User } }, () => ({ id: 1, name: 'a' })),
      post('/users', { deprecated: false }, () => undefined),
    );
  app
    .group('/v2', { version: 'v2' })
    .addRoutes(
      get('/users/:id', { responses: { 200: UserV2 } }, () => ({ id: 1, displayName: 'a' })),
    );
  return app;
}

const paths = (doc: { paths?: object }) => Object.keys(doc.paths ?? {}).sort();

describe('documents by version', () => {
  it('has each version with the routes of no version; the whole document has all', async () => {
    const app = versionedApp({ docs: { head: false } });
    const v1 = await app.openapi('v1');
    const v2 = await app.openapi('v2');
    expect(paths(v1)).toEqual([
      '/',
      '/health',
      '/health/live',
      '/health/ready',
      '/v1/users',
      '/v1/users/{id}',
    ]);
    expect(paths(v2)).toEqual(['/', '/health', '/health/live', '/health/ready', '/v2/users/{id}']);
    expect(paths(await app.openapi())).toEqual([...paths(v1), '/v2/users/{id}'].sort());
    expect(v2.info.title).toBe('test-svc (v2)');
    expect(Object.keys(v2.components?.schemas ?? {}).join()).not.toMatch(/^User$|,User,/);
    expect(await openApiProblems(v1)).toEqual([]);
    expect(await openApiProblems(v2)).toEqual([]);
  });

  it('serves them at <docs>/<version>/openapi.json, and 404 for a version there is not', async () => {
    const app = versionedApp();
    const res = await app.inject('/docs/v2/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(await app.openapi('v2'));
    expect((await app.inject('/docs/v1/openapi.json')).json()).toEqual(await app.openapi('v1'));
    expect((await app.inject('/docs/v3/openapi.json')).statusCode).toBe(404);
    await expect(app.openapi('v3')).rejects.toThrow(
      'no API version "v3"; the versions are: "v1", "v2"',
    );
  });

  it('builds each document once, and names no version when the app has none', async () => {
    const app = versionedApp();
    expect(await app.openapi('v1')).toBe(await app.openapi('v1'));
    expect(await app.openapi()).toBe(await app.openapi());
    expect(await app.openapi('v1')).not.toBe(await app.openapi());
    const { app: plain } = testApp();
    await expect(plain.openapi('v1')).rejects.toThrow(
      'no API version "v1"; the versions are: none',
    );
  });

  it('marks deprecated operations, by the route or by its group, and no others', async () => {
    const doc = await versionedApp().openapi();
    const ops = doc.paths as Record<string, Record<string, { deprecated?: boolean }>>;
    expect(ops['/v1/users/{id}']?.get?.deprecated).toBe(true);
    expect(ops['/v1/users/{id}']?.head?.deprecated).toBe(true);
    expect(ops['/v1/users']?.post?.deprecated).toBeUndefined();
    expect(ops['/v2/users/{id}']?.get?.deprecated).toBeUndefined();
  });
});

describe('the version picker', () => {
  it('offers every version on the page, and none without versions', async () => {
    const app = versionedApp();
    const html = (await app.inject('/docs')).body;
    expect(html).toContain('<select id="keelson-version">');
    expect(
      Array.from(html.matchAll(/<option value="([^"]*)" data-spec-url="([^"]+)"/g), (m) => [
        m[1],
        m[2],
      ]),
    ).toEqual([
      ['', '/docs/openapi.json'],
      ['v1', '/docs/v1/openapi.json'],
      ['v2', '/docs/v2/openapi.json'],
    ]);
    const { app: plain } = testApp();
    expect((await plain.inject('/docs')).body).not.toContain('keelson-version');
  });

  it('loads the document the ?version= query names, and reloads with the one picked', () => {
    const script = docsAssets().get(INIT_SCRIPT)!.body.toString();
    const options = [
      { value: '', url: '/docs/openapi.json' },
      { value: 'v2', url: '/docs/v2/openapi.json' },
    ].map((o) => ({ value: o.value, getAttribute: () => o.url }));
    let onChange: (() => void) | undefined;
    const picker = {
      options,
      selectedIndex: 0,
      value: '',
      addEventListener: (_: string, fn: () => void) => {
        onChange = fn;
      },
    };
    const location = { search: '?version=v2' };
    const loaded: string[] = [];
    const bundle = Object.assign((o: { url: string }) => loaded.push(o.url), {
      presets: { apis: {} },
    });
    const window = {};
    runInNewContext(script, {
      window,
      location,
      URLSearchParams,
      SwaggerUIBundle: bundle,
      document: {
        currentScript: { getAttribute: () => '/docs/openapi.json' },
        getElementById: () => picker,
      },
    });
    expect(loaded).toEqual(['/docs/v2/openapi.json']);
    expect(picker.selectedIndex).toBe(1);
    picker.value = '';
    onChange?.();
    expect(location.search).toBe('');
  });
});
