import { describe, expect, it } from 'vitest';
import { createClient, fillPath } from '../../src/client/index.js';

// keelson/client at its edges, over a fetch that records what it is asked and answers what the
// test says: URLs built from paths, parameters and queries, and bodies read by status and type.

interface Sent {
  url: string;
  init: RequestInit;
}

function fakeFetch(answer: (url: string) => Response) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return answer(url);
  }) as unknown as typeof globalThis.fetch;
  return { fetch, sent };
}

// Untyped calls: the route table is not what these tests are about.
type Loose = Record<
  string,
  (
    path: string,
    options?: Record<string, unknown>,
  ) => Promise<{
    data: unknown;
    error: unknown;
    status: number;
  }>
>;

describe('fillPath', () => {
  it('fills, encodes and drops parameters as the router reads them', () => {
    expect(fillPath('/u/:id', { id: 'a b/c' })).toBe('/u/a%20b%2Fc');
    expect(fillPath('/files/:name?', {})).toBe('/files');
    expect(fillPath('/files/:name?', { name: null })).toBe('/files');
    expect(fillPath('/:lang?', {})).toBe('/');
    expect(fillPath('/n/:id(^\\d+)', { id: 7 })).toBe('/n/7');
    expect(fillPath('/a::b/:x', { x: 1 })).toBe('/a:b/1');
    expect(fillPath('/static/*', { '*': 'css/site.css' })).toBe('/static/css/site.css');
    expect(fillPath('/static/*')).toBe('/static/');
    expect(() => fillPath('/u/:id', { id: null })).toThrow(
      new TypeError('the path /u/:id needs the parameter id'),
    );
  });
});

describe('createClient', () => {
  it('joins the base URL, path and query, and sends JSON only when there is a body', async () => {
    const { fetch, sent } = fakeFetch(() => new Response(null, { status: 204 }));
    const api = createClient<unknown>({
      baseUrl: 'http://svc.test//',
      headers: { authorization: 'Bearer t' },
      fetch,
    }) as unknown as Loose;
    await api.get!('/items', { query: { tag: ['a', 'b'], skip: undefined, n: 0 } });
    await api.get!('/items', { query: {} });
    await api.post!('/items', {
      body: { n: 1 },
      headers: { 'content-type': 'application/merge+json' },
    });
    await api.put!('/items/:id', { params: { id: 3 }, body: null });
    expect(sent.map((s) => s.url)).toEqual([
      'http://svc.test/items?tag=a&tag=b&n=0',
      'http://svc.test/items',
      'http://svc.test/items',
      'http://svc.test/items/3',
    ]);
    expect(sent[0]!.init).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer t' } });
    expect(sent[0]!.init.body).toBeUndefined();
    expect(sent[0]!.init.headers).not.toHaveProperty('content-type');
    expect(sent[2]!.init).toMatchObject({
      body: '{"n":1}',
      headers: { 'content-type': 'application/merge+json' },
    });
    expect(sent[3]!.init).toMatchObject({
      body: 'null',
      headers: { 'content-type': 'application/json' },
    });
  });

  it('reads a body by status, method and media type, and splits data from error at 2xx', async () => {
    const answers: Record<string, Response> = {};
    const { fetch } = fakeFetch((url) => answers[new URL(url).pathname]!);
    const api = createClient<unknown>({ baseUrl: 'http://svc.test', fetch }) as unknown as Loose;
    const json = (status: number, body: unknown, type = 'application/json') =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
    answers['/ok'] = json(200, { a: 1 });
    answers['/problem'] = json(404, { status: 404 }, 'application/problem+json');
    answers['/text'] = new Response('plain', {
      status: 200,
      headers: { 'content-type': 'text/plain' },
    });
    answers['/json-ish'] = new Response('{"x":1}', {
      status: 200,
      headers: { 'content-type': 'application/jsonx' },
    });
    answers['/empty'] = new Response('', {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    answers['/moved'] = new Response('<html>', { status: 300 });
    answers['/early'] = new Response('x', { status: 299 });
    answers['/not-modified'] = new Response(null, { status: 304 });
    expect(await api.get!('/ok')).toMatchObject({ data: { a: 1 }, error: undefined, status: 200 });
    expect(await api.get!('/problem')).toMatchObject({ data: undefined, error: { status: 404 } });
    expect((await api.get!('/text')).data).toBe('plain');
    // Not JSON, not text: a Blob of the bytes as they came.
    const jsonish = (await api.get!('/json-ish')).data as Blob;
    expect([jsonish instanceof Blob, await jsonish.text()]).toEqual([true, '{"x":1}']);
    expect((await api.get!('/empty')).data).toBeUndefined();
    expect(await api.get!('/moved')).toMatchObject({
      data: undefined,
      error: '<html>',
      status: 300,
    });
    expect(await api.get!('/early')).toMatchObject({ data: 'x', error: undefined });
    expect((await api.get!('/not-modified')).data).toBeUndefined();
    answers['/ok'] = json(200, { a: 1 });
    expect((await api.head!('/ok')).data).toBeUndefined();
  });
});
