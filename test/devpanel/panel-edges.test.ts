import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hostName, isLoopback, isPanelHost } from '../../src/devpanel/access.js';
import { PanelFeed, resolveDevPanel } from '../../src/devpanel/index.js';
import { maskSecrets } from '../../src/devpanel/mask.js';
import { streamFeed } from '../../src/devpanel/stream.js';
import { ConfigError } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

// The dev panel at its edges: the page's tables, the cache headers of each of its answers,
// the masking of odd config values, and the event stream's headers.

describe('the dev panel page', () => {
  it('heads each table with the columns its rows fill', async () => {
    const { app } = testApp({ env: 'development', serviceName: 'shop<1>' });
    const page = await app.inject('/_keelson');
    expect(page.headers['cache-control']).toBe('no-store');
    const heads = [...page.body.matchAll(/<thead><tr>(.*?)<\/tr><\/thead><tbody id="(\w+)">/g)].map(
      (m) => [m[2], [...m[1]!.matchAll(/<th>([^<]*)<\/th>/g)].map((h) => h[1])],
    );
    expect(heads).toEqual([
      ['requests', ['time', 'method', 'path', 'status', 'duration', 'queries', 'request id']],
      ['routes', ['method', 'path', 'operationId', 'middleware', 'source']],
      ['jobs', ['job', 'schedule', 'state', 'runs', 'last run', 'next run', 'last error']],
    ]);
    expect(page.body).toContain('<title>shop&#60;1&#62; · Keelson dev panel</title>');
    const css = /href="([^"]+panel\.css\?v=[\w-]{12})"/.exec(page.body)?.[1];
    expect(css).toBeDefined();
    const style = await app.inject(css!);
    expect(style.statusCode).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const script = await app.inject('/_keelson/assets/panel.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body.length).toBeGreaterThan(1000);
    const missing = await app.inject('/_keelson/assets/panel.exe');
    expect(missing.json().detail).toBe('no dev panel asset named "panel.exe"');
    for (const path of ['/_keelson/api/state', '/_keelson/api/health']) {
      expect((await app.inject(path)).headers['cache-control']).toBe('no-store');
    }
  });

  it('streams events with headers that keep proxies from buffering them', async () => {
    const { app } = testApp({ env: 'development' });
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/_keelson/api/events`, {
        signal: AbortSignal.timeout(5_000),
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first.startsWith('retry: 2000\nevent: hello\ndata: {}\n\n')).toBe(true);
      await reader.cancel();
    } finally {
      app.fastify.server.closeAllConnections();
      await app.fastify.close();
    }
  });
});

describe('maskSecrets', () => {
  it('masks secret keys with a value, and URL passwords, at any depth', () => {
    const cyclic: Record<string, unknown> = { name: 'c' };
    cyclic.self = cyclic;
    const masked = maskSecrets({
      apiKey: 'k',
      emptyToken: '',
      unsetSecret: undefined,
      big: 10n,
      fn: () => 1,
      sym: Symbol('s'),
      when: new Date(0),
      list: [{ password: 'p' }, 'redis://u:pw@h:6379', 'see https://x.io/a:b@c'],
      url: 'postgres://app:hunter2@db:5432/app',
      replicas: 'primary=postgres://a:one@h1/db replica=postgres://b:two@h2/db',
      nested: { inner: { clientSecret: 3 } },
      cyclic,
      nil: null,
    });
    expect(masked).toEqual({
      apiKey: '••••••',
      emptyToken: '',
      unsetSecret: undefined,
      big: '10',
      sym: undefined,
      when: '1970-01-01T00:00:00.000Z',
      list: [{ password: '••••••' }, 'redis://u:••••••@h:6379', 'see https://x.io/a:b@c'],
      url: 'postgres://app:••••••@db:5432/app',
      replicas: 'primary=postgres://a:••••••@h1/db replica=postgres://b:••••••@h2/db',
      nested: { inner: { clientSecret: '••••••' } },
      cyclic: { name: 'c', self: '[cycle]' },
      nil: null,
    });
    expect(Object.keys(masked as object)).not.toContain('fn');
    expect(JSON.stringify(maskSecrets([1, 'a', true]))).toBe('[1,"a",true]');
  });
});

describe('the panel feed and options', () => {
  it('records every path but the panel’s own, numbering events in order', () => {
    const feed = new PanelFeed(10, 10);
    const seen: number[] = [];
    const stop = feed.subscribe((e) => seen.push(e.data.seq));
    const entry = (path: string) =>
      ({ method: 'GET', path, status: 200, durationMs: 1 }) as Parameters<PanelFeed['observer']>[0];
    const request = { id: 'r1' } as Parameters<PanelFeed['observer']>[1];
    expect(feed.observer(entry('/_keelson'), request)).toBe(true);
    expect(feed.observer(entry('/_keelson/api/state'), request)).toBe(true);
    expect(feed.observer(entry('/_keelsonish'), request)).toBe(false);
    feed.tap('a line\n');
    feed.tap('no newline');
    stop();
    feed.tap('after unsubscribe');
    expect(seen).toEqual([1, 2, 3]);
    expect(feed.backlog().map((e) => [e.type, e.data.seq])).toEqual([
      ['request', 1],
      ['log', 2],
      ['log', 3],
      ['log', 4],
    ]);
    expect(
      feed
        .backlog()
        .filter((e) => e.type === 'log')
        .map((e) => (e.data as { line: string }).line),
    ).toEqual(['a line', 'no newline', 'after unsubscribe']);
  });

  it('takes limits from 1 to 100000 and refuses null as the option', () => {
    expect(resolveDevPanel({ maxRequests: 100_000, maxLogLines: 1 }, 'development')).toEqual({
      maxRequests: 100_000,
      maxLogLines: 1,
      allowRemote: false,
      hosts: [],
    });
    expect(
      resolveDevPanel({ allowRemote: true, hosts: ['Dev.Internal'] }, 'development'),
    ).toMatchObject({ allowRemote: true, hosts: ['dev.internal'] });
    expect(() => resolveDevPanel({ allowRemote: 'yes' as never }, 'development')).toThrow(
      /devPanel\.allowRemote must be a boolean, got "yes"/,
    );
    expect(() => resolveDevPanel({ hosts: ['dev.internal:3000'] }, 'development')).toThrow(
      /devPanel\.hosts must be an array of host names without port/,
    );
    expect(() => resolveDevPanel({ hosts: 'dev.internal' as never }, 'development')).toThrow(
      /devPanel\.hosts/,
    );
    expect(() => resolveDevPanel({ maxRequests: 100_001 }, 'development')).toThrow(ConfigError);
    expect(() => resolveDevPanel(null as never, 'development')).toThrow(
      /devPanel must be a boolean or an object, got null/,
    );
    expect(resolveDevPanel(false, 'development')).toBeUndefined();
  });
});

describe('the event stream on a socket', () => {
  /** A server whose one route streams `feed` until `until` aborts. */
  async function serve(feed: PanelFeed, until: AbortSignal) {
    const server = createServer((_req, res) => {
      streamFeed(
        { hijack() {}, raw: res } as unknown as FastifyReply,
        feed,
        { 'x-page': '1' },
        until,
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const open = () =>
      new Promise<IncomingMessage>((resolve, reject) =>
        httpRequest(`http://127.0.0.1:${port}/`, resolve).on('error', reject).end(),
      );
    return { server, open };
  }

  it('ends at once when the shutdown has begun', async () => {
    const { server, open } = await serve(new PanelFeed(5, 5), AbortSignal.abort());
    const res = await open();
    expect(res.headers['x-page']).toBe('1');
    let body = '';
    for await (const chunk of res) body += String(chunk);
    expect(body).toBe('');
    server.close();
  });
});

describe('the panel access check', () => {
  it('knows loopback peers and the Host names of this machine', () => {
    for (const a of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(a), a).toBe(true);
    for (const a of [undefined, '10.0.0.1', '::ffff:10.0.0.1', '127.example', 'fd00::2', '::'])
      expect(isLoopback(a), String(a)).toBe(false);
    expect(hostName('LocalHost:3000')).toBe('localhost');
    expect(hostName('[::1]:3000')).toBe('::1');
    expect(hostName('[::1')).toBeUndefined();
    expect(hostName('example.com.')).toBe('example.com');
    expect(hostName('')).toBeUndefined();
    const access = { allowRemote: false, hosts: new Set(['dev.internal']) };
    for (const h of ['localhost', 'a.localhost', '127.0.0.1', '::1', '192.0.2.7', 'dev.internal'])
      expect(isPanelHost(h, access), h).toBe(true);
    for (const h of [undefined, '', 'evil.example', 'localhost.evil.example', 'dev.internal.evil'])
      expect(isPanelHost(h, access), String(h)).toBe(false);
  });

  it('refuses through inject a Host that is not this machine, with no CORS header', async () => {
    const { app } = testApp({ env: 'development' });
    const res = await app.inject({
      url: '/_keelson/api/state',
      headers: { host: 'evil.example', origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.json().detail).toMatch(/devPanel\.hosts/);
  });
});
