import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tracer } from '../../src/extend/index.js';
import { type App, get, type Middleware } from '../../src/index.js';
import { importPeer, PeerMissingError } from '../../src/require-peer.js';
import { describeMiddleware } from '../../src/routing/middleware-docs.js';
import { issuePath } from '../../src/standard-schema.js';
import { testApp } from './helpers.js';

// The App's option wiring, its registration checks and its built-in routes, each as a client or
// a service author sees them.

const ok = () => 'ok';

describe('App options', () => {
  it('allow any origin by default and name new App() in a bad timeout', async () => {
    const { app } = testApp();
    app.addRoutes(get('/x', ok));
    const res = await app.inject({ url: '/x', headers: { origin: 'https://a.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(() => testApp({ timeoutMs: -1 })).toThrow(/^new App\(\): timeoutMs/);
  });

  it('compress answers when asked to', async () => {
    const { app } = testApp({ compress: true });
    app.addRoutes(get('/big', () => ({ text: 'x'.repeat(4096) })));
    const res = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('show the error shape of the errors option in the document, and app middleware answers', async () => {
    const needsAuth = describeMiddleware<Middleware>((_c, next) => next(), {
      responses: { 401: 'no credentials' },
    } as never);
    const error = (doc: Awaited<ReturnType<App['openapi']>>, status: string) =>
      (doc.paths['/x'] as unknown as { get: { responses: Record<string, { content?: unknown }> } })
        .get.responses[status]?.content;
    const cases: [object | undefined, unknown][] = [
      [
        undefined,
        { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      ],
      [
        { body: (p: unknown) => p, contentType: 'application/vnd.err+json' },
        { 'application/vnd.err+json': {} },
      ],
      [
        { schema: z.object({ e: z.string() }) },
        {
          'application/problem+json': {
            schema: expect.objectContaining({ properties: { e: { type: 'string' } } }),
          },
        },
      ],
    ];
    for (const [errors, content] of cases) {
      const { app } = testApp({ errors } as never);
      app.use(needsAuth).addRoutes(get('/x', ok));
      const doc = await app.openapi();
      expect(error(doc, '500')).toEqual(content);
      expect(error(doc, '401')).toEqual(content);
    }
  });

  it('build the document at the first call in production, once', async () => {
    const { app } = testApp({ env: 'production' });
    app.addRoutes(get('/x', ok));
    const doc = await app.openapi();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(await app.openapi()).toBe(doc);
  });
});

describe('App registration', () => {
  it('keeps root middleware app-wide (not on its own routes) and module middleware in its group', async () => {
    const { app } = testApp();
    const mark =
      (name: string): Middleware =>
      (c, next) => {
        c.header(`x-${name}`, '1');
        return next();
      };
    const root = mark('root');
    app.use(root);
    app.group('/g').use({
      register(a: App) {
        a.use(mark('mod'));
        a.addRoutes(get('/in', ok));
      },
    });
    app.addRoutes(get('/out', ok));
    expect(app.middleware).toEqual([root]);
    const inner = await app.inject('/g/in');
    expect([inner.headers['x-root'], inner.headers['x-mod']]).toEqual(['1', '1']);
    const outer = await app.inject('/out');
    expect([outer.headers['x-root'], outer.headers['x-mod']]).toEqual(['1', undefined]);
    expect((await app.inject('/health')).headers['x-root']).toBeUndefined();
  });

  it('refuses late registration and bad collaborators naming what went wrong', async () => {
    const { app } = testApp();
    expect(() => app.setMetricsCollector({} as never)).toThrow(
      new TypeError('a metrics collector must have a recordRequest(metric) method'),
    );
    const fnTracer = Object.assign(() => undefined, {
      start: () => undefined,
    }) as unknown as Tracer;
    expect(() => app.setTracer(fnTracer)).toThrow(
      new TypeError('a tracer must have a start(name) method'),
    );
    const metrics = { recordRequest: () => undefined };
    expect(app.setMetricsCollector(metrics).metrics).toBe(metrics);
    await app.ready();
    const late = 'must happen before the app starts (ready, inject or listen)';
    expect(() => app.setTracer({ start: () => undefined } as never)).toThrow(`setTracer ${late}`);
    expect(() => app.addRoutes(get('/y', ok))).toThrow(`registering routes ${late}`);
    expect(() => app.static('/s', '.')).toThrow(`app.static() ${late}`);
  });

  it('serves a static directory and refuses a second one on the same prefix', async () => {
    const { app } = testApp();
    app.static('/files', './test/fixtures');
    expect(() => app.static('/files/', './src')).toThrow(
      'app.static(): the prefix /files already serves a directory',
    );
    app.static('/src', './src');
    const res = await app.inject('/src/index.ts');
    expect(res.statusCode).toBe(200);
  });

  it('lists its own routes as built in, registered by keelson', async () => {
    const { app } = testApp();
    app.addRoutes(get('/x', ok));
    await app.ready();
    const health = app.routes.find((r) => r.path === '/health');
    expect(health).toMatchObject({ origin: 'keelson', builtin: true });
    expect(app.routes.find((r) => r.path === '/x')).toMatchObject({
      origin: 'app',
      builtin: false,
    });
  });
});

describe('the dev panel', () => {
  it('shows routes, jobs, health and the service’s own settings, and is absent when off', async () => {
    const { app } = testApp({ devPanel: true, ...({ myFlag: 'on' } as object) });
    app.addRoutes(get('/x', ok));
    app.registerScheduler({
      add: () => undefined,
      start: () => undefined,
      stop: async () => undefined,
      status: () => [{ name: 'nightly', schedule: '0 0 * * *', running: false, runs: 0 }],
    } as never);
    const state = (await app.inject('/_keelson/api/state')).json() as {
      routes: { path: string }[];
      jobs: { name: string }[];
      config: Record<string, unknown>;
    };
    expect(state.routes.map((r) => r.path)).toContain('/x');
    expect(state.jobs.map((j) => j.name)).toEqual(['nightly']);
    expect(state.config.myFlag).toBe('on');
    expect(state.config).not.toHaveProperty('devPanel');
    expect(state.config).not.toHaveProperty('logger');
    const health = await app.inject('/_keelson/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toHaveProperty('status');
    const { app: off } = testApp({ devPanel: false });
    expect((await off.inject('/_keelson/api/state')).statusCode).toBe(404);
  });
});

describe('optional peers', () => {
  it('turn only a missing peer into PeerMissingError and rethrow anything else as it is', async () => {
    const missing = Object.assign(new Error("Cannot find module 'redis-x'"), {
      code: 'MODULE_NOT_FOUND',
    });
    const err = await importPeer('redis-x', 'keelson/x', () => Promise.reject(missing)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PeerMissingError);
    expect((err as Error).name).toBe('PeerMissingError');
    const other = Object.assign(new Error("'redis-x' broke"), { code: 'ERR_OTHER' });
    for (const thrown of [null, 'text', other]) {
      await expect(importPeer('redis-x', 'keelson/x', () => Promise.reject(thrown))).rejects.toBe(
        thrown,
      );
    }
  });
});

describe('issue paths', () => {
  it('join keys and path segments, with or without a prefix', () => {
    expect(issuePath({ message: 'm', path: ['a', { key: 0 }] })).toBe('a.0');
    expect(issuePath({ message: 'm', path: ['a'] }, 'body')).toBe('body.a');
    expect(issuePath({ message: 'm', path: [null as never] })).toBe('null');
  });
});
