/**
 * Engine cases: the one answer path over a socket (request id, security headers, CORS, the
 * error body, one log entry and one metric per request), health and the OpenAPI document.
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, get, post } from '../../../src/index.js';
import { type EngineName, engineApp, listen, type Served, settled } from '../harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The answer-path cases, run on `engine`. */
export function answerPathCases(engine: EngineName): void {
  describe('the answer path', () => {
    let s: Served;
    beforeAll(async () => {
      const made = engineApp(engine);
      made.app.addRoutes(
        get('/ok', () => ({ ok: true })),
        get('/users/:id', () => ({ id: 1 })),
        post('/echo', { body: z.object({ n: z.number() }) }, (c) => c.body),
        get('/taken', () => {
          throw conflict('the name is taken');
        }),
        get('/boom', function explode() {
          throw new Error('db password is hunter2');
        }),
      );
      s = await listen(made);
    });
    afterAll(() => s?.close());

    it('makes a request id, keeps a valid incoming one, and puts it in the log entry', async () => {
      const made = await s.send('/ok');
      expect(made.headers['x-request-id']).toMatch(UUID);
      const kept = await s.send('/ok', { headers: { 'x-request-id': 'abc-123' } });
      expect(kept.headers['x-request-id']).toBe('abc-123');
      await settled(s, 2);
      expect(
        s
          .requestEntries()
          .slice(-2)
          .map((e) => e.requestId),
      ).toEqual([made.headers['x-request-id'], 'abc-123']);
    });

    it('sends the security headers on answers and on errors', async () => {
      for (const path of ['/ok', '/nowhere', '/boom']) {
        const res = await s.send(path);
        expect([path, res.headers]).toEqual([path, expect.objectContaining(SECURITY_HEADERS)]);
      }
    });

    it('allows any origin by default and answers a preflight', async () => {
      const res = await s.send('/ok', { headers: { origin: 'https://a.example' } });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const preflight = await s.send('/echo', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://a.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
      expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
      expect(preflight.text).toBe('');
    });

    it('answers a thrown KError with its problem', async () => {
      const res = await s.send('/taken', { headers: { 'x-request-id': 'req-409' } });
      expect(res.status).toBe(409);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        detail: 'the name is taken',
        code: 'CONFLICT',
        requestId: 'req-409',
      });
    });

    it('answers a thrown Error with a 500 that leaks nothing, its stack in the log only', async () => {
      const res = await s.send('/boom', { headers: { 'x-request-id': 'req-500' } });
      expect(res.status).toBe(500);
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'An unexpected error occurred.',
        code: 'INTERNAL',
        requestId: 'req-500',
      });
      expect(res.text).not.toContain('hunter2');
      await settled(s, 1);
      await expect
        .poll(() => s.requestEntries().find((e) => e.requestId === 'req-500'))
        .toMatchObject({ level: 'error', status: 500, error: expect.stringMatching(/hunter2/) });
    });

    it('logs one entry and records one metric per request, with the route pattern', async () => {
      const before = s.requestEntries().length;
      const metricsBefore = s.metrics.length;
      const answers = [
        await s.send('/users/7?secret=x'),
        await s.send('/echo', { method: 'POST', body: { n: 1 } }),
        await s.send('/echo', { method: 'POST', body: { n: 'one' } }),
        await s.send('/nowhere'),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 422, 404]);
      await settled(s, before + 4);
      const entries = s.requestEntries().slice(before);
      expect(entries.map((e) => [e.level, e.method, e.path, e.status])).toEqual([
        ['info', 'GET', '/users/7', 200],
        ['info', 'POST', '/echo', 200],
        ['warn', 'POST', '/echo', 422],
        ['warn', 'GET', '/nowhere', 404],
      ]);
      for (const e of entries) {
        expect(Object.keys(e).slice(0, 6)).toEqual([
          'level',
          'time',
          'method',
          'path',
          'status',
          'duration',
        ]);
        expect(e.duration).toMatch(/^\d+\.\dms$/);
      }
      const metrics = s.metrics.slice(metricsBefore);
      expect(metrics.map((m) => [m.method, m.route, m.statusCode])).toEqual([
        ['GET', '/users/:id', 200],
        ['POST', '/echo', 200],
        ['POST', '/echo', 422],
        ['GET', metrics[3]?.route, 404],
      ]);
      // Unmatched requests share one route value, never the raw path.
      expect(metrics[3]?.route).not.toBe('/nowhere');
      for (const m of metrics) expect(m.durationMs).toBeGreaterThanOrEqual(0);
      // Exactly one each: a later request's entry and metric come next, nothing in between.
      await s.send('/ok');
      await settled(s, before + 5);
      expect(
        s
          .requestEntries()
          .slice(before)
          .map((e) => e.path),
      ).toEqual(['/users/7', '/echo', '/echo', '/nowhere', '/ok']);
      expect(s.metrics.slice(metricsBefore).map((m) => m.route)).toEqual([
        '/users/:id',
        '/echo',
        '/echo',
        metrics[3]?.route,
        '/ok',
      ]);
    });

    it('answers /health, /health/live and /health/ready', async () => {
      const health = await s.send('/health');
      expect(health.status).toBe(200);
      expect(health.json()).toEqual({
        status: 'UP',
        service: 'engine-suite',
        version: '1.0.0',
        checks: {},
      });
      expect((await s.send('/health/live')).status).toBe(200);
      expect((await s.send('/health/ready')).status).toBe(200);
    });

    it('serves /docs/openapi.json, the same document on every engine, and the docs page', async () => {
      const res = await s.send('/docs/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      // One file (next to the entry files) for both engines: the Bun engine's document is
      // compared with the one the Fastify engine served.
      await expect(JSON.stringify(res.json(), null, 2)).toMatchFileSnapshot(
        './__snapshots__/openapi.snap',
      );
      const page = await s.send('/docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    });
  });

  describe('CORS with a configured origin', () => {
    it('allows that origin only, varying on Origin, and answers its preflight', async () => {
      const made = engineApp(engine, { cors: { origin: ['https://app.example'] } });
      made.app.addRoutes(post('/things', () => ({ ok: true })));
      const s = await listen(made);
      const allowed = await s.send('/things', {
        method: 'POST',
        headers: { origin: 'https://app.example' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(allowed.headers.vary).toBe('Origin');
      const preflight = await s.send('/things', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await s.send('/things', {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      });
      expect(other.status).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      await s.close();
    });
  });
}
