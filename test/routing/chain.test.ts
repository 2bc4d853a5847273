// One rule decides a route's middleware chain (chainOf): app, groups, route, each middleware
// once. Mounting, WebSockets, the document and the route table all read it.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { routeRows } from '../../src/docs/route-table.js';
import { type App, type Controller, get, type Middleware, ws } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** A guard that counts its runs and lets every request through. */
function countingGuard(): { guard: Middleware; runs: () => number } {
  let runs = 0;
  const guard: Middleware = function countedGuard(_c, next) {
    runs++;
    return next();
  };
  return { guard, runs: () => runs };
}

/** The app with `guard` on the group `/team` and again on its WebSocket and HTTP routes. */
function twiceGuarded(guard: Middleware): App {
  const { app } = testApp();
  apps.push(app);
  class Team implements Controller {
    routes() {
      return [
        ws('/feed', { middleware: [guard], onMessage: (m, socket) => socket.send(String(m)) }),
        get('/roster', { middleware: [guard] }, () => ({ ok: true })),
      ];
    }
  }
  app.group('/team', guard).registerController(new Team());
  return app;
}

describe('the middleware chain of a route', () => {
  it('runs a guard repeated on the group and on a WebSocket route once per upgrade', async () => {
    const { guard, runs } = countingGuard();
    const app = twiceGuarded(guard);
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.fastify.server.address() as AddressInfo;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/team/feed`);
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      const echo = new Promise<string>((resolve) =>
        socket.once('message', (d) => resolve(String(d))),
      );
      socket.send('hello');
      expect(await echo).toBe('hello');
      expect(runs()).toBe(1);
    } finally {
      socket.terminate();
    }
  });

  it('runs it once on an HTTP route too', async () => {
    const { guard, runs } = countingGuard();
    const app = twiceGuarded(guard);
    const res = await app.inject('/team/roster');
    expect(res.statusCode).toBe(200);
    expect(runs()).toBe(1);
  });

  it('lists it once in the route table, the app-wide middleware first', async () => {
    const { guard } = countingGuard();
    const app = twiceGuarded(guard);
    const appWide: Middleware = function appWide(_c, next) {
      return next();
    };
    app.use(appWide);
    await app.ready();
    const rows = routeRows(app.routes, app.middleware).filter((r) => r.path.startsWith('/team'));
    expect(rows.map((r) => [r.path, r.middleware])).toEqual([
      ['/team/feed', ['appWide', 'countedGuard']],
      ['/team/roster', ['appWide', 'countedGuard']],
    ]);
  });
});
