import { describe, expect, it } from 'vitest';
import { App, get, type Middleware, route } from '../../src/index.js';
import { makeRoute } from '../../src/routing/builders.js';
import { originOf } from '../../src/routing/group.js';
import { normalizePrefix, RouteTable, type Scope } from '../../src/routing/table.js';
import { testApp } from '../app/helpers.js';

// The registration-time checks of routes, groups and controllers, and how prefixes join.

const ok = () => 'ok';

describe('route builders', () => {
  it('accept a method in any case and refuse a bad method, path or handler naming it', () => {
    expect(route('get' as 'GET', '/x', ok).method).toBe('GET');
    const bad: [() => unknown, string][] = [
      [
        () => route(5 as unknown as 'GET', '/x', ok),
        'route method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, got 5',
      ],
      [
        () => makeRoute('FETCH' as 'GET', '/x', ok, undefined),
        'route method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, got FETCH',
      ],
      [() => get('x', ok), `route path must start with '/', got "x"`],
      [() => get(5 as unknown as string, ok), `route path must start with '/', got 5`],
      [
        () => get('/a/:id(^\\d+)?', ok),
        'route GET /a/:id(^\\d+)?: an optional parameter cannot have a pattern (the router would never match it); register the path with the parameter and the path without it as two routes',
      ],
      [
        () => get('/x', {}, undefined as unknown as () => string),
        'route GET /x: the handler must be a function, got undefined',
      ],
    ];
    for (const [make, message] of bad) expect(make).toThrow(new TypeError(message));
  });
});

describe('route paths with parameters', () => {
  it('match a pattern and an optional parameter, which the check lets through', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/n/:id(^\\d+)', (c) => c.params),
      get('/o/:id?', (c) => c.params),
    );
    const answers = await Promise.all(
      ['/n/12', '/n/x', '/o/7', '/o'].map(async (url) => {
        const r = await app.inject(url);
        return [url, r.statusCode, r.statusCode === 200 ? r.body : ''];
      }),
    );
    expect(answers).toEqual([
      ['/n/12', 200, '{"id":"12"}'],
      ['/n/x', 404, ''],
      ['/o/7', 200, '{"id":"7"}'],
      ['/o', 200, '{}'],
    ]);
  });
});

describe('group prefixes', () => {
  it('are normalised: trailing slash dropped, "/" is the root, and must start with "/"', () => {
    expect(normalizePrefix('/api/')).toBe('/api');
    expect(normalizePrefix('/api')).toBe('/api');
    expect(normalizePrefix('/')).toBe('');
    expect(() => normalizePrefix('api')).toThrow(
      new TypeError(`group prefix must start with '/', got "api"`),
    );
    expect(() => normalizePrefix(5 as unknown as string)).toThrow(
      new TypeError(`group prefix must start with '/', got 5`),
    );
  });

  it('join route paths: the root route stays "/", a "/" group adds nothing', async () => {
    const { app } = testApp();
    app.addRoutes(get('/', () => 'root'));
    const api = app.group('/api/', (c, next) => {
      c.header('x-group', 'api');
      return next();
    });
    expect(api.prefix).toBe('/api');
    expect(api.group('/v1').prefix).toBe('/api/v1');
    api.addRoutes(get('/', () => 'api'));
    app.group('/').addRoutes(get('/x', () => 'x'));
    expect(app.routes.map((r) => r.path)).toEqual(['/', '/api', '/x']);
    expect((await app.inject('/')).json()).toBe('root');
    const res = await app.inject('/api');
    expect([res.json(), res.headers['x-group']]).toEqual(['api', 'api']);
    expect((await app.inject('/x')).json()).toBe('x');
  });

  it('take middleware through group.use and refuse middleware that is not a function', async () => {
    const { app } = testApp();
    const mark: Middleware = (c, next) => {
      c.header('x-mark', '1');
      return next();
    };
    app.group('/g').use(mark).addRoutes(get('/a', ok));
    app.addRoutes(get('/b', ok));
    expect((await app.inject('/g/a')).headers['x-mark']).toBe('1');
    expect((await app.inject('/b')).headers['x-mark']).toBeUndefined();
    const app2 = new App({ serviceName: 's' });
    expect(() => app2.group('/g', 5 as unknown as Middleware)).toThrow(
      new TypeError('middleware must be a function, got number'),
    );
    expect(() => app2.group('/g', null as unknown as Middleware)).toThrow(
      new TypeError('middleware must be a function, got null'),
    );
  });
});

describe('route table', () => {
  it('names who registered each side of a duplicate route', () => {
    const { app } = testApp();
    const api = app.group('/api');
    api.addRoutes(get('/users/:id', ok));
    expect(() => api.addRoutes(get('/users/:userId', ok))).toThrow(
      'duplicate route GET /api/users/:userId: registered by group /api as GET /api/users/:id and again by group /api',
    );
    // A parameter is not the empty segment: both routes register.
    app.addRoutes(get('/api/users/', ok));
    expect(app.routes.map((r) => r.path)).toEqual(['/api/users/:id', '/api/users/']);
  });

  it('marks a route added without saying otherwise as not built in', () => {
    const root: Scope = { prefix: '', middleware: [], parent: undefined };
    expect(new RouteTable().add(get('/x', ok), root, 'app').builtin).toBe(false);
  });
});

describe('controllers', () => {
  it('are refused without a routes() method or when it does not return an array', () => {
    class Broken {
      routes() {
        return 'nope' as unknown as [];
      }
    }
    const { app } = testApp();
    const bad: [unknown, string][] = [
      [null, 'a controller must have a routes() method, got null'],
      [{}, 'a controller must have a routes() method, got object'],
      [{ routes: 5 }, 'a controller must have a routes() method, got object'],
      [new Broken(), 'Broken.routes() must return an array of routes'],
      [{ routes: () => 5 }, 'a controller.routes() must return an array of routes'],
    ];
    for (const [controller, message] of bad) {
      expect(() => app.registerController(controller as never)).toThrow(new TypeError(message));
    }
  });

  it('are named by their class, else "a controller"', () => {
    const anonymous = new ((() => class {})())();
    const cases: [object, string][] = [
      [new (class UsersController {})(), 'UsersController'],
      [{}, 'a controller'],
      [Object.create(null) as object, 'a controller'],
      [anonymous, 'a controller'],
      [{ constructor: { name: 5 } }, 'a controller'],
    ];
    for (const [value, name] of cases) expect(originOf(value)).toBe(name);
  });
});
