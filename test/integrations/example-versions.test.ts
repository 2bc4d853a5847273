import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiV1, type ApiV2, V1_SUNSET } from '../../examples/basic/app.js';
import { createClient } from '../../src/client/index.js';
import type { App } from '../../src/index.js';
import { injectFetch } from '../../src/testing/index.js';
import { exampleApp } from '../support/example-app.js';

// The example's two versions of the users resource: version 1 deprecated, version 2 its
// successor, each with a document and a typed client of its own.

const headers = { authorization: 'Bearer demo-token' };

describe('the example service, versions 1 and 2', () => {
  let app: App;
  beforeAll(async () => {
    app = await exampleApp();
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves a user by both versions, version 1 with the deprecation headers', async () => {
    const fetch = injectFetch(app);
    const v1 = createClient<ApiV1>({ baseUrl: 'http://local', headers, fetch });
    const v2 = createClient<ApiV2>({ baseUrl: 'http://local', headers, fetch });
    const made = await v1.post('/api/v1/users', {
      body: { name: 'Ada', email: 'ada.versions@example.com' },
    });
    const id = made.data!.id;
    expect(made.response.headers.get('sunset')).toBe(V1_SUNSET.toUTCString());
    const old = await v1.get('/api/v1/users/:id', { params: { id } });
    expect(old.data).toEqual({ id, name: 'Ada', email: 'ada.versions@example.com' });
    expect(old.response.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(old.response.headers.get('link')).toBe('</api/v2/users>; rel="successor-version"');
    const current = await v2.get('/api/v2/users/:id', { params: { id } });
    expect(current.data).toEqual({ id, displayName: 'Ada', email: 'ada.versions@example.com' });
    expect(current.response.headers.get('deprecation')).toBeNull();
    // Version 1's media routes are not deprecated: only its users routes have a successor.
    const avatar = await app.inject({ method: 'POST', url: '/api/v1/avatar', headers });
    expect(avatar.statusCode).toBeGreaterThanOrEqual(400);
    expect(avatar.headers.deprecation).toBeUndefined();
  });

  it('has a document per version, version 1 marking its users operations deprecated', async () => {
    const v1 = await app.openapi('v1');
    const v2 = await app.openapi('v2');
    const ops = (doc: typeof v1) =>
      doc.paths as Record<string, Record<string, { deprecated?: boolean }>>;
    expect(ops(v1)['/api/v1/users/{id}']?.get?.deprecated).toBe(true);
    expect(ops(v1)['/api/v2/users/{id}']).toBeUndefined();
    expect(ops(v2)['/api/v2/users/{id}']?.get?.deprecated).toBeUndefined();
    expect(ops(v2)['/api/v1/users']).toBeUndefined();
    expect(ops(v2)['/']?.get).toBeDefined();
  });
});
