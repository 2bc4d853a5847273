import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OpenApiDocument } from '../../src/docs/openapi.js';
import { formatRouteTable, routeRows } from '../../src/docs/route-table.js';
import { get, head } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { runCliIn } from './run-cli.js';

// `keelson routes` and the dev panel list exactly the operations of the document: HEAD ones,
// both paths of an optional parameter, and nothing the document leaves out.

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every `METHOD id` of the document, sorted. */
function documentIds(doc: OpenApiDocument): string[] {
  return Object.values(doc.paths)
    .flatMap((ops) => Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${op.operationId}`))
    .sort();
}

function rowIds(rows: readonly { method: string; operationId: string }[]): string[] {
  return rows
    .filter((r) => r.operationId)
    .map((r) => `${r.method} ${r.operationId}`)
    .sort();
}

describe('the route table of keelson routes', () => {
  it('lists the HEAD operations the document has, with their ids', async () => {
    const { code, out } = await runCliIn(['routes', join(FIXTURES, 'app.ts'), '--json'], ROOT);
    expect(code).toBe(0);
    const rows = JSON.parse(out) as { method: string; path: string; operationId: string }[];
    const doc = JSON.parse((await runCliIn(['openapi', join(FIXTURES, 'app.ts')], ROOT)).out);
    expect(rowIds(rows)).toEqual(documentIds(doc));
    expect(rows).toContainEqual(
      expect.objectContaining({ method: 'HEAD', path: '/ping', operationId: 'pingHead' }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        method: 'HEAD',
        path: '/things/list',
        operationId: 'headThingsList2',
      }),
    );
  });

  it('lists both paths of an optional parameter and an explicit HEAD route once', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/files/:name?', { operationId: 'getFile' }, () => 'f'),
      get('/orders', { operationId: 'listOrders' }, () => []),
      head('/orders', () => undefined),
      get('/secret', { hidden: true }, () => 's'),
    );
    const doc = await app.openapi();
    const rows = routeRows(app.routes, app.middleware, doc);
    expect(rowIds(rows)).toEqual(documentIds(doc));
    expect(rows.filter((r) => r.path.startsWith('/files'))).toEqual([
      expect.objectContaining({ method: 'GET', path: '/files/:name?', operationId: 'getFile' }),
      expect.objectContaining({
        method: 'HEAD',
        path: '/files/:name?',
        operationId: 'getFileHead',
      }),
      expect.objectContaining({ method: 'GET', path: '/files', operationId: 'getFileWithoutName' }),
      expect.objectContaining({
        method: 'HEAD',
        path: '/files',
        operationId: 'getFileHeadWithoutName',
      }),
    ]);
    expect(
      rows.filter((r) => r.path === '/orders').map((r) => `${r.method} ${r.operationId}`),
    ).toEqual(['GET listOrders', 'HEAD headOrders']);
    expect(rows.filter((r) => r.path === '/secret')).toEqual([
      expect.objectContaining({ method: 'GET', operationId: '' }),
    ]);
  });

  it('leaves out what docs.head and docs.builtins keep out of the document', async () => {
    const { app } = testApp({ docs: { head: false, builtins: false } });
    app.addRoutes(get('/orders', { operationId: 'listOrders' }, () => []));
    const doc = await app.openapi();
    expect(Object.keys(doc.paths)).toEqual(['/orders']);
    expect(Object.keys(doc.paths['/orders']!)).toEqual(['get']);
    const rows = routeRows(app.routes, app.middleware, doc);
    expect(rowIds(rows)).toEqual(['GET listOrders']);
    expect(rows.find((r) => r.path === '/health')).toMatchObject({ operationId: '' });
    expect(formatRouteTable(rows)).toMatch(/GET\s+\/health\s+\(not documented\)\s+-\s+keelson/);
    // The engine still answers what the document leaves out.
    expect((await app.inject({ method: 'HEAD', url: '/orders' })).statusCode).toBe(200);
    expect((await app.inject('/health')).statusCode).toBe(200);
  });
});

describe('the route table of the dev panel in production', () => {
  it('shows the ids of app.openapi(), though the docs are not served', async () => {
    const { app } = testApp({
      env: 'production',
      devPanel: { enabled: true, forceInProduction: true },
    });
    app.addRoutes(
      get('/things-list', () => []),
      get('/things/list', () => []),
    );
    const state = (await app.inject('/_keelson/api/state')).json();
    const doc = await app.openapi();
    expect(rowIds(state.routes)).toEqual(documentIds(doc));
    expect(rowIds(state.routes)).toContain('GET getThingsList2');
  });

  it('falls back to the routes’ own ids when the document cannot be built', async () => {
    const { app } = testApp({
      env: 'production',
      devPanel: { enabled: true, forceInProduction: true },
    });
    app.addRoutes(get('/when', { query: z.object({ at: z.date() }) }, () => 'x'));
    await expect(app.openapi()).rejects.toThrow(/route GET \/when/);
    const state = await app.inject('/_keelson/api/state');
    expect(state.statusCode).toBe(200);
    expect(state.json().routes).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/when', operationId: 'getWhen' }),
    );
  });
});
