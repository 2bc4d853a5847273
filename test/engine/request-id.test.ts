import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get, post } from '../../src/index.js';
import { LogFormat } from '../../src/logger/index.js';
import { memoryLogger, requestEntries, testApp } from '../app/helpers.js';
import { rawRequest } from '../reliability/raw-http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function routes(app: App) {
  app.addRoutes(
    get('/id', (c) => ({ id: c.requestId })),
    post('/users', { body: z.object({ name: z.string() }) }, (c) => c.body),
    get('/boom', () => {
      throw new Error('x');
    }),
  );
}

describe('request ids', () => {
  it('keeps a valid incoming x-request-id and sends it back, as c.requestId', async () => {
    const { app, lines } = testApp();
    routes(app);
    const id = 'abc.DEF_123:4-5';
    const res = await app.inject({ url: '/id', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toBe(id);
    expect(res.json()).toEqual({ id });
    expect(requestEntries(lines).at(-1)?.requestId).toBe(id);
  });

  it('replaces a missing or invalid id with a fresh UUID', async () => {
    const { app } = testApp();
    routes(app);
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), 'é', '<script>', 'a\tb']) {
      const res = await app.inject({
        url: '/id',
        headers: bad === undefined ? {} : { 'x-request-id': bad },
      });
      const id = res.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(res.json()).toEqual({ id });
    }
    const a = await app.inject('/id');
    const b = await app.inject('/id');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    const longest = 'x'.repeat(128);
    const kept = await app.inject({ url: '/id', headers: { 'x-request-id': longest } });
    expect(kept.headers['x-request-id']).toBe(longest);
  });

  it('carries the id on 404s, 422s and 500s: header, problem body and log entry', async () => {
    const { app, lines } = testApp();
    routes(app);
    const cases = [
      { url: '/nope', method: 'GET' as const, status: 404 },
      { url: '/users', method: 'POST' as const, status: 422, payload: { name: 1 } },
      { url: '/boom', method: 'GET' as const, status: 500 },
    ];
    for (const { status, ...request } of cases) {
      const id = `req-${status}`;
      const res = await app.inject({ ...request, headers: { 'x-request-id': id } });
      expect(res.statusCode).toBe(status);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.json().requestId).toBe(id);
      expect(requestEntries(lines).filter((e) => e.requestId === id)).toHaveLength(1);
    }
  });

  it('carries the id on answers written by the parser', async () => {
    const { app, lines } = testApp({ host: '127.0.0.1', port: 0 });
    await app.ready();
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.fastify.server.address() as AddressInfo).port;
      const res = await rawRequest(port, Buffer.from('GET / HTTP/1.1\r\nBad Header\r\n\r\n'));
      expect(res.status).toBe(400);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(JSON.parse(res.body).requestId).toBe(id);
      expect(requestEntries(lines).filter((e) => e.requestId === id)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('renames the header with requestId.header', async () => {
    const { app } = testApp({ requestId: { header: 'X-Correlation-Id' } });
    routes(app);
    const res = await app.inject({ url: '/id', headers: { 'x-correlation-id': 'corr-1' } });
    expect(res.headers['x-correlation-id']).toBe('corr-1');
    expect(res.headers['x-request-id']).toBeUndefined();
    expect(res.json()).toEqual({ id: 'corr-1' });
  });

  it('leaves ids out with requestId: false: no header, no log field, no problem member', async () => {
    const { app, lines } = testApp({ requestId: false });
    routes(app);
    const res = await app.inject({ url: '/nope', headers: { 'x-request-id': 'abc' } });
    expect(res.headers['x-request-id']).toBeUndefined();
    expect(res.statusCode).toBe(404);
    expect(res.json()).not.toHaveProperty('requestId');
    expect(requestEntries(lines).at(-1)).not.toHaveProperty('requestId');
  });

  it('keeps the text request-log line exactly as SPEC.md writes it', async () => {
    const { logger, lines } = memoryLogger(LogFormat.Text);
    const app = new App({ serviceName: 's', logger });
    routes(app);
    await app.inject({ url: '/id', headers: { 'x-request-id': 'abc' } });
    expect(lines.at(-1)).toMatch(
      /^\[INFO\] \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GET \/id 200 \d+\.\dms$/,
    );
  });

  it('refuses a requestId option that is not false or { header }', () => {
    expect(() => testApp({ requestId: { header: 'bad header' } })).toThrow(
      'requestId.header must be an HTTP header name, got bad header',
    );
    expect(() => testApp({ requestId: 'x' as never })).toThrow(/requestId must be false/);
    expect(() => testApp({ requestId: null as never })).toThrow(
      new TypeError('requestId must be false or { header }, got null'),
    );
    expect(() => testApp({ requestId: { header: 5 as never } })).toThrow(
      new TypeError('requestId.header must be an HTTP header name, got 5'),
    );
  });

  it('takes requestId: true as the default x-request-id header', async () => {
    const { app } = testApp({ requestId: true as never });
    routes(app);
    const res = await app.inject({ url: '/nope', headers: { 'x-request-id': 'abc' } });
    expect(res.headers['x-request-id']).toBe('abc');
  });
});
