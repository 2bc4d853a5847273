import { request as httpRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PanelFeed, resolveDevPanel } from '../../src/devpanel/index.js';
import { Ring } from '../../src/devpanel/ring.js';
import type { RequestMetric, Scheduler } from '../../src/extend/index.js';
import { ConfigError, get } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

describe('the dev panel', () => {
  it('is served in development, with no inline script and the page security headers', async () => {
    const { app } = testApp({ env: 'development' });
    const page = await app.inject('/_keelson');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(page.body).not.toMatch(/\son\w+=/);
    const script = /src="([^"]+panel\.js[^"]*)"/.exec(page.body)![1]!;
    const js = await app.inject(script.replace(/&#38;/g, '&'));
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    const missing = await app.inject('/_keelson/assets/nope.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 404 in production even when enabled, unless forced; off in staging unless enabled', async () => {
    expect((await testApp({ env: 'production' }).app.inject('/_keelson')).statusCode).toBe(404);
    const asked = testApp({ env: 'production', devPanel: true }).app;
    expect((await asked.inject('/_keelson')).statusCode).toBe(404);
    expect((await asked.inject('/_keelson/api/state')).statusCode).toBe(404);
    const forced = testApp({
      env: 'production',
      devPanel: { enabled: true, forceInProduction: true },
    });
    expect((await forced.app.inject('/_keelson')).statusCode).toBe(200);
    expect((await testApp({ env: 'staging' }).app.inject('/_keelson')).statusCode).toBe(404);
    expect(
      (await testApp({ env: 'staging', devPanel: true }).app.inject('/_keelson')).statusCode,
    ).toBe(200);
    expect(
      (await testApp({ env: 'development', devPanel: false }).app.inject('/_keelson')).statusCode,
    ).toBe(404);
  });

  it('refuses a bad devPanel option with a ConfigError naming it', () => {
    expect(() => testApp({ devPanel: 'yes' as never })).toThrow(ConfigError);
    expect(() => testApp({ devPanel: { maxRequests: 0 } })).toThrow(
      /devPanel\.maxRequests must be an integer in 1\.\.100000, got 0/,
    );
    expect(() => testApp({ devPanel: { maxLogLines: 1.5 } })).toThrow(/devPanel\.maxLogLines/);
    expect(resolveDevPanel(undefined, 'development')).toEqual({
      maxRequests: 100,
      maxLogLines: 200,
      allowRemote: false,
      hosts: [],
    });
  });

  it('keeps its own requests out of the request log, the metrics and the OpenAPI document', async () => {
    const { app, lines } = testApp({ env: 'development' });
    const metrics: RequestMetric[] = [];
    app.setMetricsCollector({ recordRequest: (m) => metrics.push(m) });
    app.addRoutes(get('/ping', () => 'pong'));
    await app.inject('/_keelson');
    await app.inject('/_keelson/api/state');
    await app.inject('/_keelson/nope');
    await app.inject('/ping');
    expect(requestEntries(lines).map((e) => e.path)).toEqual(['/ping']);
    expect(metrics.map((m) => m.route)).toEqual(['/ping']);
    const doc = await app.openapi();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/_keelson'))).toEqual([]);
  });

  it('reports routes, jobs, health and the config with secrets masked', async () => {
    const scheduler: Scheduler = {
      add() {},
      start() {},
      stop: async () => {},
      status: () => [
        {
          name: 'nightly',
          schedule: '0 3 * * *',
          running: false,
          runs: 2,
          lastError: new Error('disk full'),
          nextRun: new Date('2030-01-01T03:00:00Z'),
          lastRun: new Date('2029-12-31T03:00:00Z'),
        },
      ],
    };
    const { app } = testApp({
      env: 'development',
      database: { url: 'postgres://app:hunter2@db:5432/app', password: 'hunter2', poolSize: 5 },
      apiToken: 'abc',
      stripeSecretKey: 'sk_live_1',
    } as never);
    app.registerScheduler(scheduler);
    app.registerHealthChecker({
      name: () => 'db',
      check: () => {
        throw new Error('refused');
      },
    });
    app.addRoutes(
      get('/ping', () => 'pong'),
      get('/ping-s/:id', () => 'pong'),
      get('/ping/s/:id', () => 'pong'),
    );
    const state = (await app.inject('/_keelson/api/state')).json();
    // The document's ids, HEAD ones included: a taken automatic id gets a number.
    expect(
      state.routes
        .filter((r: { path: string }) => r.path.startsWith('/ping'))
        .map((r: { method: string; operationId: string }) => `${r.method} ${r.operationId}`),
    ).toEqual([
      'GET getPing',
      'HEAD headPing',
      'GET getPingSById',
      'HEAD headPingSById',
      'GET getPingSById2',
      'HEAD headPingSById2',
    ]);
    expect(state.routes).toContainEqual({
      method: 'GET',
      path: '/ping',
      operationId: 'getPing',
      middleware: [],
      source: 'app',
    });
    expect(state.jobs).toEqual([
      {
        name: 'nightly',
        schedule: '0 3 * * *',
        running: false,
        runs: 2,
        lastError: 'disk full',
        nextRun: '2030-01-01T03:00:00.000Z',
        lastRun: '2029-12-31T03:00:00.000Z',
      },
    ]);
    expect(state.config).toMatchObject({
      serviceName: 'test-svc',
      port: 3000,
      apiToken: '••••••',
      stripeSecretKey: '••••••',
      database: { url: 'postgres://app:••••••@db:5432/app', password: '••••••', poolSize: 5 },
    });
    expect(JSON.stringify(state)).not.toMatch(/hunter2|abc"|sk_live/);
    const health = await app.inject('/_keelson/api/health');
    expect(health.json()).toEqual({ status: 'DOWN', checks: { db: 'DOWN: refused' } });
    const noJobs = (await testApp({ env: 'development' }).app.inject('/_keelson/api/state')).json();
    expect(noJobs.jobs).toBeNull();
  });

  it('keeps only the last N requests and log lines', () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 5; i++) ring.push(i);
    expect(ring.toArray()).toEqual([3, 4, 5]);
    const feed = new PanelFeed(2, 1);
    for (const path of ['/a', '/b', '/c']) {
      feed.observer({ method: 'GET', path, status: 200, durationMs: 1 }, { id: path } as never);
    }
    feed.tap('first\n');
    feed.tap('second\n');
    expect(feed.backlog().map((e) => ('path' in e.data ? e.data.path : e.data.line))).toEqual([
      '/b',
      '/c',
      'second',
    ]);
    feed.tap('a line written without its newline');
    expect(feed.backlog().at(-1)?.data).toMatchObject({
      line: 'a line written without its newline',
    });
  });
});

function readEvents(res: IncomingMessage, until: (text: string) => boolean): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    res.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (until(text)) resolve(text);
    });
    res.on('end', () =>
      until(text) ? resolve(text) : reject(new Error(`stream ended:\n${text}`)),
    );
  });
}

describe('the dev panel event stream', () => {
  it('streams each request with its id and each log line as it happens, and ends at shutdown', async () => {
    const { app } = testApp({ env: 'development' });
    app.addRoutes(
      get('/ping', (c) => {
        c.log.info('pinged');
        return 'pong';
      }),
    );
    await app.ready();
    const base = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest(`${base}/_keelson/api/events`, resolve).on('error', reject).end();
    });
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await readEvents(res, (t) => t.includes('event: hello'));
    const events = readEvents(
      res,
      (t) => /event: request\n.*"path":"\/ping"/.test(t) && t.includes('pinged'),
    );
    const ping = await fetch(`${base}/ping`, { headers: { 'x-request-id': 'req-42' } });
    expect(ping.status).toBe(200);
    const text = await events;
    const request = /event: request\ndata: (.*)\n/.exec(text)![1]!;
    expect(JSON.parse(request)).toMatchObject({
      method: 'GET',
      path: '/ping',
      status: 200,
      requestId: expect.any(String),
    });
    expect(text).toMatch(/event: log\ndata: .*pinged/);
    const ended = new Promise((resolve) => res.on('end', resolve));
    expect(await app.close()).toBe(true);
    await ended;
  });
});
