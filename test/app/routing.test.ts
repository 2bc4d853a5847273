import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Context,
  type Controller,
  del,
  get,
  head,
  type Middleware,
  type Module,
  notFound,
  post,
  put,
  route,
} from '../../src/index.js';
import { testApp } from './helpers.js';

const User = z.object({ id: z.number(), name: z.string(), email: z.email() });
const NewUser = User.omit({ id: true });

class UsersController implements Controller {
  readonly #users = new Map<number, z.infer<typeof User>>([
    [1, { id: 1, name: 'Ada', email: 'ada@example.com' }],
  ]);
  routes() {
    return [
      get(
        '/users/:id',
        { params: z.object({ id: z.coerce.number().int() }), responses: { 200: User } },
        (c) => {
          const user = this.#users.get(c.params.id);
          if (!user) throw notFound(`user ${c.params.id} not found`);
          return { ...user, password: 'secret' };
        },
      ),
      post('/users', { body: NewUser, responses: { 201: User } }, (c) => {
        const user = { id: this.#users.size + 1, ...c.body };
        this.#users.set(user.id, user);
        return c.created(user);
      }),
      del('/users/:id', (c) => {
        this.#users.delete(Number(c.params.id));
        return c.noContent();
      }),
    ];
  }
}

describe('routing', () => {
  it('answers a typed GET with the declared response, validated params and coercion', async () => {
    const { app } = testApp();
    app.registerController(new UsersController());
    const res = await app.inject('/users/1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com' });
  });

  it('never sends a field the response schema does not declare', async () => {
    const { app } = testApp();
    app.registerController(new UsersController());
    const res = await app.inject('/users/1');
    expect(res.body).not.toContain('password');
    expect(res.body).not.toContain('secret');
  });

  it('answers the first declared 2xx status and helpers set theirs', async () => {
    const { app } = testApp();
    app.registerController(new UsersController());
    const created = await app.inject({
      method: 'POST',
      url: '/users',
      payload: { name: 'Bo', email: 'bo@example.com' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 2, name: 'Bo', email: 'bo@example.com' });
    const deleted = await app.inject({ method: 'DELETE', url: '/users/2' });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
  });

  it('answers a thrown KError as problem JSON with its status', async () => {
    const { app } = testApp();
    app.registerController(new UsersController());
    const res = await app.inject('/users/99');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      title: 'Not Found',
      detail: 'user 99 not found',
    });
  });

  it('answers 422 with every issue of params, query and body, each with its path', async () => {
    const { app } = testApp();
    app.addRoutes(
      put(
        '/items/:id',
        {
          params: z.object({ id: z.coerce.number().int() }),
          query: z.object({ dry: z.enum(['yes', 'no']) }),
          body: z.object({ name: z.string().min(2), tags: z.array(z.string()) }),
        },
        () => ({ ok: true }),
      ),
    );
    const res = await app.inject({
      method: 'PUT',
      url: '/items/abc?dry=maybe',
      payload: { name: 'x', tags: [1] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as { code: string; errors: { path: string; message: string }[] };
    expect(body.code).toBe('VALIDATION_FAILED');
    const paths = body.errors.map((e) => e.path).sort();
    expect(paths).toEqual(['body.name', 'body.tags.0', 'params.id', 'query.dry']);
    for (const e of body.errors) expect(e.message).toEqual(expect.any(String));
  });

  it('awaits a schema that validates asynchronously, and still reports the issues of every part', async () => {
    const { app } = testApp();
    const taken = new Set(['ada']);
    app.addRoutes(
      post(
        '/names/:n',
        {
          params: z.object({ n: z.coerce.number().refine(async (n) => n > 0, 'must be positive') }),
          body: z.object({
            name: z.string().refine(async (name) => !taken.has(name), 'name is taken'),
          }),
          query: z.object({ q: z.string().optional() }),
        },
        (c) => ({ n: c.params.n, name: c.body.name }),
      ),
    );
    const ok = await app.inject({ method: 'POST', url: '/names/1', payload: { name: 'bo' } });
    expect(ok.json()).toEqual({ n: 1, name: 'bo' });
    const bad = await app.inject({
      method: 'POST',
      url: '/names/x?q=1&q=2',
      payload: { name: 'ada' },
    });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['body.name', 'params.n', 'query.q']);
  });

  it('answers 422 when a body schema is declared and no body is sent', async () => {
    const { app } = testApp();
    app.registerController(new UsersController());
    const res = await app.inject({ method: 'POST', url: '/users' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].path).toBe('body');
  });

  it('validates with Valibot through the same Standard Schema interface', async () => {
    const { app } = testApp();
    const Item = v.object({ name: v.pipe(v.string(), v.minLength(2)), qty: v.number() });
    app.addRoutes(
      // Hidden: plain Valibot has no JSON Schema side, which the OpenAPI document would need.
      post('/valibot', { body: Item, responses: { 200: Item }, hidden: true }, (c) => ({
        ...c.body,
        extra: 1,
      })),
    );
    const ok = await app.inject({
      method: 'POST',
      url: '/valibot',
      payload: { name: 'ab', qty: 2 },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ name: 'ab', qty: 2 });
    const bad = await app.inject({ method: 'POST', url: '/valibot', payload: { name: 'a' } });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['body.name', 'body.qty']);
  });

  it('answers malformed JSON with 400, a wrong content type with 415, a large body with 413', async () => {
    const { app } = testApp({ bodyLimit: 1024 });
    app.registerController(new UsersController());
    const malformed = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(malformed.json().code).toBe('MALFORMED_JSON');

    const wrongType = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.headers['content-type']).toMatch(/^application\/problem\+json/);

    const large = await app.inject({
      method: 'POST',
      url: '/users',
      payload: { name: 'x'.repeat(2000), email: 'a@b.co' },
    });
    expect(large.statusCode).toBe(413);
    expect(large.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('has a default body limit of 1 MiB', async () => {
    const { app } = testApp();
    app.addRoutes(post('/echo', (c) => ({ size: JSON.stringify(c.body).length })));
    const under = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { s: 'x'.repeat(1024 * 1024 - 100) },
    });
    expect(under.statusCode).toBe(200);
    const over = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { s: 'x'.repeat(1024 * 1024) },
    });
    expect(over.statusCode).toBe(413);
  });

  it('answers an unknown route with a 404 problem and a known path with the wrong method with 405', async () => {
    const { app } = testApp();
    app.registerController(new UsersController());
    const missing = await app.inject('/nope?x=1');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const wrong = await app.inject({ method: 'PATCH', url: '/users/1' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('DELETE, GET, HEAD');
    expect(wrong.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('turns a throw or rejection in a handler or middleware into a generic 500 and keeps serving', async () => {
    const { app } = testApp();
    const failing: Middleware = async () => {
      throw new Error('database password is hunter2');
    };
    app.addRoutes(
      get('/throw', () => {
        throw new Error('secret detail');
      }),
      get('/reject', () => Promise.reject(new TypeError('secret reject'))),
      get('/mw', { middleware: [failing] }, () => 'unreachable'),
      get('/string', () => {
        throw 'a string';
      }),
      get('/ok', () => ({ ok: true })),
    );
    for (const url of ['/throw', '/reject', '/mw', '/string']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 500, code: 'INTERNAL' });
      expect(res.body).not.toMatch(/secret|hunter2|a string|at /);
    }
    expect((await app.inject('/ok')).json()).toEqual({ ok: true });
  });

  it('rejects the same method and path registered twice, naming both', () => {
    const { app } = testApp();
    class A implements Controller {
      routes() {
        return [get('/users/:id', () => 'a')];
      }
    }
    class B implements Controller {
      routes() {
        return [get('/users/:userId', () => 'b')];
      }
    }
    app.registerController(new A());
    expect(() => app.registerController(new B())).toThrow(
      /duplicate route GET \/users\/:userId: registered by A as GET \/users\/:id and again by B/,
    );
  });

  it('rejects a user route that takes the path of a built-in one when the app starts', async () => {
    const { app } = testApp();
    app.addRoutes(get('/health', () => 'mine'));
    await expect(app.ready()).rejects.toThrow(/duplicate route GET \/health/);
  });

  it('accepts route() with any method, and a route with no options', async () => {
    const { app } = testApp();
    app.addRoutes(
      route('PATCH', '/r', () => ({ patched: true })),
      get('/ping', () => 'pong'),
    );
    expect((await app.inject({ method: 'PATCH', url: '/r' })).json()).toEqual({ patched: true });
    expect((await app.inject('/ping')).json()).toBe('pong');
  });

  it('answers HEAD from a GET route, and from an explicit HEAD route registered beside the GET', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/x', () => ({ a: 1 })),
      head('/x', (c) => {
        c.header('x-head', 'explicit');
        return c.noContent();
      }),
      get('/y', () => ({ b: 2 })),
    );
    const x = await app.inject({ method: 'HEAD', url: '/x' });
    expect(x.statusCode).toBe(204);
    expect(x.headers['x-head']).toBe('explicit');
    const y = await app.inject({ method: 'HEAD', url: '/y' });
    expect(y.statusCode).toBe(200);
    expect(y.body).toBe('');
    expect((await app.inject('/x')).json()).toEqual({ a: 1 });
  });

  it('refuses to register routes after the app has started', async () => {
    const { app } = testApp();
    await app.ready();
    expect(() => app.addRoutes(get('/late', () => 1))).toThrow(/before the app starts/);
  });
});

describe('groups, modules and middleware', () => {
  const trace =
    (name: string, log: string[]): Middleware =>
    async (_c, next) => {
      log.push(`>${name}`);
      const out = await next();
      log.push(`<${name}`);
      return out;
    };

  it('runs middleware as an onion: app ▸ group ▸ nested group ▸ route ▸ handler', async () => {
    const { app } = testApp();
    const log: string[] = [];
    app.use(trace('app', log));
    const api = app.group('/api', trace('api', log));
    api.group('/v1', trace('v1', log)).addRoutes(
      get('/x', { middleware: [trace('route', log)] }, () => {
        log.push('handler');
        return { ok: true };
      }),
    );
    const res = await app.inject('/api/v1/x');
    expect(res.json()).toEqual({ ok: true });
    expect(log).toEqual([
      '>app',
      '>api',
      '>v1',
      '>route',
      'handler',
      '<route',
      '<v1',
      '<api',
      '<app',
    ]);
  });

  it('lets a middleware answer early, and passes the answer on when it forgets to return next()', async () => {
    const { app } = testApp();
    const deny: Middleware = async (c) => {
      if (c.request.headers.authorization !== 'Bearer ok') return c.status(401, { error: 'no' });
      return undefined;
    };
    const forgetful: Middleware = async (_c, next) => {
      await next();
    };
    app.group('/secure', deny).addRoutes(get('/x', () => ({ secret: 1 })));
    app.group('/loose', forgetful).addRoutes(get('/x', () => ({ fine: 1 })));
    expect((await app.inject('/secure/x')).statusCode).toBe(401);
    expect((await app.inject('/loose/x')).json()).toEqual({ fine: 1 });
  });

  it('runs middleware before validation, so an unauthenticated caller gets 401 rather than 422', async () => {
    const { app } = testApp();
    const auth: Middleware = async (c, next) => {
      if (!c.request.headers.authorization)
        throw (await import('../../src/index.js')).unauthorized();
      return next();
    };
    app
      .group('/g', auth)
      .addRoutes(post('/x', { body: z.object({ a: z.string() }) }, (c) => c.body));
    expect((await app.inject({ method: 'POST', url: '/g/x', payload: {} })).statusCode).toBe(401);
  });

  it('registers a module used on a group under its prefix and middleware; its app-wide calls reach the app', async () => {
    const { app } = testApp();
    const seen: string[] = [];
    class ThingsModule implements Module {
      register(a: typeof app) {
        a.registerController({ routes: () => [get('/things', () => ['a'])] });
        a.registerHealthChecker({ name: () => 'things', check: () => {} });
        a.onShutdown(() => {
          seen.push('hook');
        });
      }
    }
    app
      .group('/api', async (c: Context, next) => {
        c.reply.header('x-group', 'api');
        return next();
      })
      .use(new ThingsModule());
    const res = await app.inject('/api/things');
    expect(res.json()).toEqual(['a']);
    expect(res.headers['x-group']).toBe('api');
    expect((await app.inject('/things')).statusCode).toBe(404);
    expect((await app.inject('/health')).json().checks).toEqual({ things: 'UP' });
    await app.close();
    expect(seen).toEqual(['hook']);
  });

  it('rejects a module whose register is async', () => {
    const { app } = testApp();
    expect(() => app.use({ register: async () => {} } as unknown as Module)).toThrow(
      /synchronously/,
    );
  });
});

describe('CORS', () => {
  it('is permissive by default and answers preflight requests', async () => {
    const { app } = testApp();
    app.addRoutes(get('/x', () => 1));
    const res = await app.inject({ url: '/x', headers: { origin: 'https://example.com' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/x',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });

  it('takes its options from the cors option, and can be left out', async () => {
    const { app } = testApp({ cors: { origin: 'https://only.example' } });
    app.addRoutes(get('/x', () => 1));
    const res = await app.inject({ url: '/x', headers: { origin: 'https://example.com' } });
    expect(res.headers['access-control-allow-origin']).toBe('https://only.example');
    const { app: none } = testApp({ cors: false });
    none.addRoutes(get('/x', () => 1));
    const r2 = await none.inject({ url: '/x', headers: { origin: 'https://example.com' } });
    expect(r2.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('errors after the response', () => {
  it('logs an error thrown after the handler sent its response, and keeps serving', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/late', async (c) => {
        await c.reply.send({ sent: true });
        throw new Error('too late');
      }),
      get('/ok', () => ({ ok: true })),
    );
    const res = await app.inject('/late');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true });
    expect(
      lines.some((l) =>
        /route GET \/late failed after its response was sent: Error: too late/.test(l),
      ),
    ).toBe(true);
    expect((await app.inject('/ok')).statusCode).toBe(200);
  });
});
