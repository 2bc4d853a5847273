/**
 * Engine cases: what a handler sees of the engine (`c.request`, `c.reply` by the names both
 * engines give them, and `app.engine`).
 * @module
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { post } from '../../../src/index.js';
import { type EngineName, engineApp, listen } from '../harness.js';

/** What `app.engine` is: the Fastify instance, or Bun's server once listening. */
interface EngineAccessor {
  readonly name: string;
  readonly fastify?: unknown;
  readonly server?: unknown;
}

/** The request/reply and engine-accessor cases, run on `engine`. */
export function contextCases(engine: EngineName): void {
  describe('c.request, c.reply and app.engine', () => {
    it('gives the handler the request and reply by the same names', async () => {
      const made = engineApp(engine);
      made.app.addRoutes(
        post(
          '/things/:id',
          { body: z.object({ n: z.number() }), query: z.object({ q: z.string() }) },
          (c) => {
            const { request: req, reply } = c;
            reply.header('x-one', '1');
            reply.header('x-two', '2');
            reply.removeHeader('x-two');
            reply.code(202);
            const seen = {
              id: req.id === c.requestId,
              method: req.method,
              url: req.url,
              header: req.headers['x-custom'],
              params: req.params,
              query: req.query,
              body: req.body,
              ip: req.ip,
              statusCode: reply.statusCode,
              one: reply.getHeader('x-one'),
              hasTwo: reply.hasHeader('x-two'),
              headers: Object.keys(reply.getHeaders()).filter((h) => h.startsWith('x-')),
              sent: reply.sent,
            };
            reply.type('application/vnd.things+json');
            return seen;
          },
        ),
      );
      const s = await listen(made);
      const res = await s.send('/things/9?q=a', {
        method: 'POST',
        body: { n: 1 },
        headers: { 'x-custom': 'yes' },
      });
      expect(res.status).toBe(202);
      expect(res.headers['x-one']).toBe('1');
      expect(res.headers['x-two']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.things\+json/);
      expect(res.json()).toEqual({
        id: true,
        method: 'POST',
        url: '/things/9?q=a',
        header: 'yes',
        params: { id: '9' },
        query: { q: 'a' },
        body: { n: 1 },
        ip: '127.0.0.1',
        statusCode: 202,
        one: '1',
        hasTwo: false,
        headers: expect.arrayContaining(['x-one']),
        sent: false,
      });
      await s.close();
    });

    it('opens one server span per request, its attributes read through trusted proxies', async () => {
      const made = engineApp(engine, { trustProxy: true });
      const spans: { name: string; start: unknown; status: unknown; ended: number }[] = [];
      made.app.setTracer({
        start(name, options) {
          const span = { name, start: options?.attributes, status: undefined as unknown, ended: 0 };
          spans.push(span);
          return {
            setAttribute: (key, value) => {
              if (key === 'http.response.status_code') span.status = value;
            },
            recordError: () => {},
            end: () => void span.ended++,
          };
        },
      });
      made.app.addRoutes(post('/spans/:id', (c) => c.noContent()));
      const s = await listen(made);
      const res = await s.send('/spans/1?q=x', {
        method: 'POST',
        headers: {
          'x-forwarded-for': '203.0.113.9',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'api.example',
          'user-agent': 'probe/1',
        },
      });
      expect(res.status).toBe(204);
      await s.close();
      expect(spans).toEqual([
        {
          name: 'POST /spans/:id',
          start: {
            'http.request.method': 'POST',
            'url.path': '/spans/1',
            'url.scheme': 'https',
            'network.protocol.version': '1.1',
            'client.address': '203.0.113.9',
            'http.route': '/spans/:id',
            'server.address': 'api.example',
            'user_agent.original': 'probe/1',
          },
          status: 204,
          ended: 1,
        },
      ]);
    });

    it('names its engine in app.engine', async () => {
      const made = engineApp(engine);
      const { app } = made;
      const accessor = () => (app as unknown as { engine?: EngineAccessor }).engine;
      if (engine === 'fastify') {
        expect(accessor()?.name).toBe('fastify');
        expect(accessor()?.fastify).toBe(app.fastify);
        return;
      }
      // The Bun engine: its server once listening; `app.fastify` says to use app.engine.
      expect(accessor()?.name).toBe('bun');
      expect(accessor()?.server).toBeUndefined();
      expect(() => app.fastify).toThrow(/app\.engine/);
      const s = await listen(made);
      expect(accessor()?.server).toBeDefined();
      await s.close();
    });
  });
}
