import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../examples/basic/app.js';
import { createClient, fillPath } from '../../src/client/index.js';
import { boundUrl } from '../../src/engine/engine.js';
import type { App } from '../../src/index.js';
import { injectFetch } from '../../src/testing/index.js';
import { exampleApp } from '../support/example-app.js';

const auth = { authorization: 'Bearer demo-token' };

describe('the typed client against a running server', () => {
  let app: App;
  let baseUrl = '';
  beforeAll(async () => {
    app = await exampleApp({ host: '127.0.0.1', port: 0 });
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = boundUrl(app.fastify);
  });
  afterAll(() => app.close());

  it('creates, reads, lists and deletes, each answer in data or error', async () => {
    const api = createClient<Api>({ baseUrl, headers: auth });
    const created = await api.post('/api/v1/users', {
      body: { name: 'Ada', email: 'ada.client@example.com' },
    });
    expect(created.status).toBe(201);
    const id = created.data!.id;
    const read = await api.get('/api/v1/users/:id', { params: { id } });
    expect(read).toMatchObject({ status: 200, error: undefined, data: { id, name: 'Ada' } });
    const list = await api.get('/api/v1/users', { query: { limit: 50 } });
    expect(list.data?.data.some((u) => u.id === id)).toBe(true);
    const gone = await api.delete('/api/v1/users/:id', { params: { id } });
    expect(gone).toMatchObject({ status: 204, data: undefined, error: undefined });
    const again = await api.get('/api/v1/users/:id', { params: { id } });
    expect(again.status).toBe(404);
    expect(again.error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(again.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('puts the problem body of a refused request in error', async () => {
    const anonymous = createClient<Api>({ baseUrl });
    const r = await anonymous.get('/api/v1/users');
    expect(r).toMatchObject({ status: 401, data: undefined, error: { status: 401 } });
    const bad = await createClient<Api>({ baseUrl, headers: auth }).post('/api/v1/users', {
      body: { name: '', email: 'not-an-email' },
    });
    expect(bad.status).toBe(422);
    expect(bad.error?.errors?.map((e) => e.path).sort()).toEqual(['body.email', 'body.name']);
  });

  it('runs without a port through injectFetch', async () => {
    const api = createClient<Api>({
      baseUrl: 'http://test',
      fetch: injectFetch(app),
      headers: auth,
    });
    expect((await api.get('/')).data).toEqual({ service: 'users-api', docs: '/docs' });
    const head = await createClient<Api>({ baseUrl: 'http://test', fetch: injectFetch(app) }).head(
      '/',
    );
    expect(head).toMatchObject({ status: 200, data: undefined });
  });
});

describe('fillPath', () => {
  it('fills parameters encoded, drops an unset optional one, fills the wildcard', () => {
    expect(fillPath('/users/:id', { id: 'a b/c' })).toBe('/users/a%20b%2Fc');
    expect(fillPath('/files/:name?', {})).toBe('/files');
    expect(fillPath('/files/:name?', { name: 'x' })).toBe('/files/x');
    expect(fillPath('/orders/:id(^\\d+$)', { id: 7 })).toBe('/orders/7');
    expect(fillPath('/static/*', { '*': 'a/b.css' })).toBe('/static/a/b.css');
    expect(fillPath('/a::b/:c', { c: 1 })).toBe('/a:b/1');
  });

  it('throws naming a missing required parameter', () => {
    expect(() => fillPath('/users/:id', {})).toThrow('the path /users/:id needs the parameter id');
  });
});
