import { type AddressInfo, connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { securityHeadersFor } from '../../src/engine/security-headers.js';
import type { AttributeValue, Span, SpanStartOptions } from '../../src/extend/index.js';
import { get, head, notFound, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { rawRequest } from '../reliability/raw-http.js';

// Headers at their edges: CORS preflights and plain OPTIONS, the security headers an option
// gives, the span attributes of a request, and errors that carry headers.

describe('CORS and plain OPTIONS', () => {
  function corsApp() {
    const { app } = testApp();
    app.addRoutes(
      post('/items', () => 1),
      get('/items', () => []),
    );
    return app;
  }

  it('allows the routed methods, HEAD only for GET routes, sorted', async () => {
    const app = corsApp();
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/items',
      headers: { origin: 'https://web.example', 'access-control-request-method': 'POST' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
    expect(res.headers.allow).toBeUndefined();
    // No GET route at all (the built-in ones left out): no HEAD either.
    const { app: posts } = testApp({ env: 'production', disableHealth: true });
    posts.addRoutes(post('/items', () => 1));
    const only = await posts.inject({
      method: 'OPTIONS',
      url: '/items',
      headers: { origin: 'https://web.example', 'access-control-request-method': 'POST' },
    });
    expect(only.headers['access-control-allow-methods']).toBe('POST');
  });

  it('answers an OPTIONS with only one of Origin and Access-Control-Request-Method as a plain OPTIONS', async () => {
    const app = corsApp();
    for (const headers of [
      { origin: 'https://web.example' },
      { 'access-control-request-method': 'POST' },
    ]) {
      const res = await app.inject({ method: 'OPTIONS', url: '/items', headers });
      expect([res.statusCode, res.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS, POST']);
    }
  });
});

describe('errors and their headers', () => {
  it('sends the headers of a KError, never those of another error', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/other', () => {
        throw Object.assign(new Error('upstream said no'), {
          statusCode: 409,
          headers: { 'x-upstream': 'leaked' },
        });
      }),
    );
    const res = await app.inject('/other');
    expect(res.statusCode).toBe(409);
    expect(res.headers['x-upstream']).toBeUndefined();
  });

  it('says which method is not allowed on which path', async () => {
    const { app } = testApp();
    app.addRoutes(
      head('/ping', () => undefined),
      get('/items/:id', () => 1),
    );
    const res = await app.inject({ method: 'DELETE', url: '/items/7?x=1' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      detail: 'DELETE is not allowed on /items/7.',
    });
  });
});

describe('answers with no body', () => {
  it('sends a null body of a non-JSON type as an empty answer, with the usual headers', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/nothing', (c) => {
        c.header('content-type', 'text/plain');
        return c.reply.send(null);
      }),
    );
    const res = await app.inject('/nothing');
    expect([res.statusCode, res.body]).toEqual([200, '']);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('securityHeadersFor', () => {
  it('works out helmet options without directive functions once, names in lower case', () => {
    for (const option of [
      { frameguard: false as const },
      { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], imgSrc: "'self'" } } },
    ]) {
      const headers = securityHeadersFor(option);
      expect(headers.perRequest).toBeUndefined();
      expect(headers.page).toBe(headers.api);
      expect(headers.api['x-content-type-options']).toBe('nosniff');
      for (const name of Object.keys(headers.api)) expect(name).toBe(name.toLowerCase());
    }
    const csp = securityHeadersFor({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], imgSrc: "'self'" } },
    }).api['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self'");
  });

  it('leaves options holding a directive function to run per request', () => {
    const option = {
      contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } },
    };
    expect(securityHeadersFor(option)).toEqual({ api: {}, page: {}, perRequest: option });
  });

  it("sends helmet's set on answers written outside the engine too", async () => {
    const { app } = testApp({ helmet: { frameguard: false }, host: '127.0.0.1', port: 0 });
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as AddressInfo;
      const res = await rawRequest(port, Buffer.from('GET /x HTTP/9.9\r\n\r\n', 'latin1'));
      expect(res.status).toBe(400);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-dns-prefetch-control']).toBe('off');
      expect(res.headers['x-frame-options']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('the server span', () => {
  interface Started {
    name: string;
    attributes: Record<string, AttributeValue>;
    errors: unknown[];
  }

  function tracedApp() {
    const { app } = testApp({ host: '127.0.0.1', port: 0 });
    const started: Started[] = [];
    app.setTracer({
      start(name: string, options?: SpanStartOptions): Span {
        const s: Started = { name, attributes: { ...options?.attributes }, errors: [] };
        started.push(s);
        return {
          setAttribute: () => {},
          recordError: (e) => s.errors.push(e),
          end: () => {},
        };
      },
    });
    app.addRoutes(
      get('/who', () => 1),
      get('/missing', () => {
        throw notFound('no such thing');
      }),
      get('/boom', () => {
        throw new Error('broke');
      }),
    );
    return { app, started };
  }

  it('carries server address, port and user agent when the request gives them', async () => {
    const { app, started } = tracedApp();
    await app.inject({
      url: '/who',
      headers: { host: 'api.example.com:8443', 'user-agent': 'probe/1.0' },
    });
    expect(started[0]?.attributes).toMatchObject({
      'server.address': 'api.example.com',
      'server.port': 8443,
      'user_agent.original': 'probe/1.0',
    });
    await app.inject({ url: '/who', headers: { host: 'api.example.com', 'user-agent': '' } });
    expect(started[1]?.attributes['server.address']).toBe('api.example.com');
    expect(started[1]?.attributes).not.toHaveProperty('server.port');
    expect(started[1]?.attributes).not.toHaveProperty('user_agent.original');
  });

  it('leaves the server address out when the request has no Host', async () => {
    const { app, started } = tracedApp();
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as AddressInfo;
      const res = await rawRequest(port, Buffer.from('GET /who HTTP/1.0\r\n\r\n', 'latin1'));
      expect(res.status).toBe(200);
      expect(started).toHaveLength(1);
      expect(started[0]?.attributes).not.toHaveProperty('server.address');
      expect(started[0]?.attributes).not.toHaveProperty('server.port');
    } finally {
      await app.close();
    }
  });

  it('records the error of a 5xx on the span, not that of a 4xx', async () => {
    const { app, started } = tracedApp();
    await app.inject('/missing');
    await app.inject('/boom');
    expect(started.map((s) => [s.name, s.errors.length])).toEqual([
      ['GET /missing', 0],
      ['GET /boom', 1],
    ]);
  });
});

describe('Connection: close while draining', () => {
  /** Sends one keep-alive request on its own socket and reads its response's head. */
  function keepAlive(port: number, path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('error', reject);
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase());
        }
      });
      socket.write(`GET ${path} HTTP/1.1\r\nHost: a\r\n\r\n`);
    });
  }

  it('keeps a connection open before the shutdown and closes it for an answer in flight when it begins', async () => {
    const { app } = testApp({ host: '127.0.0.1', port: 0 });
    let release = () => {};
    let entered = () => {};
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = false;
    app.addRoutes(
      get('/slow', async () => {
        if (waiting) {
          entered();
          await gate;
        }
        return { ok: true };
      }),
    );
    const served = app.listen();
    await vi.waitFor(() => expect(app.address).toBeDefined());
    const port = Number(new URL(app.address!).port);
    const before = await keepAlive(port, '/slow');
    expect(before).toContain('connection: keep-alive');
    waiting = true;
    const during = keepAlive(port, '/slow');
    await inHandler;
    const closing = app.close();
    release();
    expect(await during).toContain('connection: close');
    await closing;
    await served;
  });
});
