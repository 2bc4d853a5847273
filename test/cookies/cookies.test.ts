import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { send, serve } from '../support/serve.js';

const OLD_SECRET = 'old-secret-old-secret-old-secret-0001';
const NEW_SECRET = 'new-secret-new-secret-new-secret-0002';

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function start(app: App): Promise<number> {
  apps.push(app);
  return serve(app);
}

function setCookies(headers: { 'set-cookie'?: string[] | undefined }): string[] {
  return headers['set-cookie'] ?? [];
}

// `name=value` of a Set-Cookie line, as a browser would send it back.
function pair(setCookie: string): string {
  return setCookie.split(';')[0]!;
}

describe('cookies', () => {
  it('parses c.cookies from the Cookie header, and is empty without one', async () => {
    const { app } = testApp();
    app.addRoutes(get('/c', (c) => c.cookies));
    const port = await start(app);
    const withCookies = await send(port, '/c', { headers: { cookie: 'a=1; b=hello%20world' } });
    expect(JSON.parse(withCookies.text)).toEqual({ a: '1', b: 'hello world' });
    const without = await send(port, '/c');
    expect(JSON.parse(without.text)).toEqual({});
  });

  it('sets cookies HttpOnly, SameSite=Lax and Path=/ by default, without Secure outside production', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/login', (c) => {
        c.setCookie('session', 'abc');
        c.setCookie('theme', 'dark', { httpOnly: false, sameSite: 'strict', maxAge: 60 });
        return { ok: true };
      }),
    );
    const port = await start(app);
    const res = await send(port, '/login');
    expect(res.status).toBe(200);
    const [session, theme] = setCookies(res.headers);
    expect(session).toBe('session=abc; Path=/; HttpOnly; SameSite=Lax');
    expect(theme).toBe('theme=dark; Max-Age=60; Path=/; SameSite=Strict');
  });

  it('adds Secure to every cookie in production', async () => {
    const { app } = testApp({ env: 'production' });
    app.addRoutes(get('/login', (c) => c.setCookie('session', 'abc') && { ok: true }));
    const port = await start(app);
    const [session] = setCookies((await send(port, '/login')).headers);
    expect(session).toBe('session=abc; Path=/; HttpOnly; Secure; SameSite=Lax');
  });

  it('clears a cookie with an expiry in the past on its path', async () => {
    const { app } = testApp();
    app.addRoutes(get('/logout', (c) => c.clearCookie('session') && { ok: true }));
    const port = await start(app);
    const [cleared] = setCookies((await send(port, '/logout')).headers);
    expect(cleared).toMatch(/^session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
  });

  it('gives middleware the same cookies, and lets it set one on the answer', async () => {
    const { app } = testApp();
    app
      .group('/g', async (c, next) => {
        if (c.cookies.blocked === 'yes') return { blocked: true };
        c.setCookie('seen', '1');
        return next();
      })
      .addRoutes(get('/x', (c) => ({ blocked: false, a: c.cookies.a ?? null })));
    const port = await start(app);
    const blocked = await send(port, '/g/x', { headers: { cookie: 'blocked=yes' } });
    expect(JSON.parse(blocked.text)).toEqual({ blocked: true });
    const passed = await send(port, '/g/x', { headers: { cookie: 'a=1' } });
    expect(JSON.parse(passed.text)).toEqual({ blocked: false, a: '1' });
    expect(setCookies(passed.headers)).toEqual(['seen=1; Path=/; HttpOnly; SameSite=Lax']);
  });

  it('reads malformed Cookie headers without failing', async () => {
    const { app } = testApp({ cookies: { secret: NEW_SECRET } });
    app.addRoutes(get('/c', (c) => ({ a: c.cookies.a ?? null, s: c.signedCookie('a') ?? null })));
    const port = await start(app);
    for (const cookie of [
      'a=%zz',
      ';;;',
      '=',
      'a',
      'a=1=2',
      `a=${'x'.repeat(4000)}`,
      'a="q',
      '__proto__=1',
    ]) {
      const res = await send(port, '/c', { headers: { cookie } });
      expect(res.status, cookie).toBe(200);
      expect(JSON.parse(res.text).s, cookie).toBeNull();
    }
    const res = await send(port, '/c', { headers: { cookie: 'a=%zz' } });
    expect(JSON.parse(res.text).a).toBe('%zz');
  });

  it('does not parse the Cookie header of a route that never reads it', async () => {
    const { app } = testApp();
    app.addRoutes(get('/plain', (c) => ({ parsed: c.request.cookies !== null })));
    const port = await start(app);
    const res = await send(port, '/plain', { headers: { cookie: 'a=1' } });
    expect(JSON.parse(res.text)).toEqual({ parsed: false });
  });
});

describe('signed cookies', () => {
  function signingApp(secret: string | string[]) {
    const { app } = testApp({ cookies: { secret } });
    app.addRoutes(
      get('/sign', (c) => c.setCookie('user', 'ada', { signed: true }) && { ok: true }),
      get('/read', (c) => ({ user: c.signedCookie('user') ?? null, raw: c.cookies.user ?? null })),
    );
    return app;
  }

  it('reads back a value it signed', async () => {
    const port = await start(signingApp(NEW_SECRET));
    const [signed] = setCookies((await send(port, '/sign')).headers);
    expect(signed).toMatch(/^user=ada\.[A-Za-z0-9+/%_-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const res = await send(port, '/read', { headers: { cookie: pair(signed!) } });
    expect(JSON.parse(res.text).user).toBe('ada');
  });

  it('answers undefined for a tampered, unsigned or absent cookie', async () => {
    const port = await start(signingApp(NEW_SECRET));
    const [signed] = setCookies((await send(port, '/sign')).headers);
    const tampered = pair(signed!).replace('user=ada.', 'user=eve.');
    for (const cookie of [tampered, 'user=ada', 'user=ada.', 'other=1']) {
      const res = await send(port, '/read', { headers: { cookie } });
      expect(JSON.parse(res.text).user, cookie).toBeNull();
    }
  });

  it('verifies cookies signed with an older secret during a rotation, and signs with the first', async () => {
    const before = await start(signingApp(OLD_SECRET));
    const rotated = await start(signingApp([NEW_SECRET, OLD_SECRET]));
    const retired = await start(signingApp(NEW_SECRET));
    const [oldCookie] = setCookies((await send(before, '/sign')).headers);
    const read = async (port: number, setCookie: string) =>
      JSON.parse((await send(port, '/read', { headers: { cookie: pair(setCookie) } })).text).user;
    expect(await read(rotated, oldCookie!)).toBe('ada');
    expect(await read(retired, oldCookie!)).toBeNull();
    const [newCookie] = setCookies((await send(rotated, '/sign')).headers);
    expect(await read(retired, newCookie!)).toBe('ada');
  });

  it('refuses a short secret when the app is created, naming the field', () => {
    expect(() => testApp({ cookies: { secret: 'short' } })).toThrow(
      'cookies.secret must be a string of at least 32 characters, got 5 characters',
    );
    expect(() => testApp({ cookies: { secret: [NEW_SECRET, 'x'] } })).toThrow(
      /cookies\.secret\[1\]/,
    );
    expect(() => testApp({ cookies: { secret: [] } })).toThrow(/non-empty array/);
  });

  it("keeps the secret out of the dev panel, which shows a service's own options", async () => {
    const { app } = testApp({
      env: 'development',
      cookies: { secret: NEW_SECRET },
      compress: true,
    });
    apps.push(app);
    const state = (await app.inject('/_keelson/api/state')).json() as { config: object };
    expect(state.config).not.toHaveProperty('cookies');
    expect(state.config).not.toHaveProperty('compress');
    expect(JSON.stringify(state)).not.toContain(NEW_SECRET);
  });

  it('answers 500 and logs why when a route signs without a secret', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/sign', (c) => c.setCookie('user', 'ada', { signed: true }) && { ok: true }),
    );
    const port = await start(app);
    const res = await send(port, '/sign');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(lines.join('\n')).toContain('needs a secret: pass cookies: { secret } to new App()');
  });
});

describe('a route cookies schema', () => {
  function schemaApp() {
    const { app } = testApp();
    app.addRoutes(
      get(
        '/cart',
        {
          cookies: z.object({
            cart: z.coerce.number().int().positive(),
            theme: z.string().optional(),
          }),
        },
        (c) => ({ cart: c.cookies.cart, theme: c.cookies.theme ?? null }),
      ),
    );
    return app;
  }

  it('validates and converts the cookies into c.cookies', async () => {
    const port = await start(schemaApp());
    const res = await send(port, '/cart', { headers: { cookie: 'cart=42; theme=dark' } });
    expect(JSON.parse(res.text)).toEqual({ cart: 42, theme: 'dark' });
  });

  it('answers 422 problem+json naming each bad or missing cookie', async () => {
    const port = await start(schemaApp());
    for (const cookie of ['cart=-1', 'cart=abc', 'theme=dark', '']) {
      const res = await send(port, '/cart', { headers: cookie ? { cookie } : {} });
      expect(res.status, cookie).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = JSON.parse(res.text) as { errors: { path: string }[] };
      expect(problem.errors.map((e) => e.path)).toEqual(['cookies.cart']);
    }
  });

  it('documents the cookies as in: cookie parameters', async () => {
    const app = schemaApp();
    apps.push(app);
    const doc = await app.openapi();
    const op = doc.paths['/cart']?.get as {
      parameters: unknown[];
      responses: Record<string, unknown>;
    };
    expect(op.parameters).toEqual([
      {
        name: 'cart',
        in: 'cookie',
        required: true,
        schema: expect.objectContaining({ type: 'integer' }),
      },
      { name: 'theme', in: 'cookie', required: false, schema: { type: 'string' } },
    ]);
    expect(Object.keys(op.responses)).toContain('422');
  });
});
