import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiKey } from '../../../src/auth/index.js';
import type { RequestMetric } from '../../../src/contracts.js';
import { idempotency, memoryIdempotencyStore, patch, post, put } from '../../../src/index.js';
import { ENGINES, expectSame, expectSameLogs, type Twin, twin } from './twin.js';

vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }));

const json = { 'content-type': 'application/json' };

function bodies() {
  return twin({ bodyLimit: 64 }, (app) =>
    app.addRoutes(
      post('/echo', (c) => ({ body: c.body ?? 'none' })),
      post('/typed', { body: z.object({ n: z.number() }) }, (c) => c.body),
      put('/text', (c) => ({ type: typeof c.body, body: c.body ?? null })),
    ),
  );
}

describe('request bodies on the Bun engine, read as the Fastify engine reads them', () => {
  // Each test its own apps: a mutant in the mount is then run against every test.
  let t: Twin;
  beforeEach(() => {
    t = bodies();
  });
  afterEach(() => expectSameLogs(t));

  it('JSON, text, an empty JSON body, text to a JSON route', async () => {
    expect(
      (await expectSame(t, { method: 'POST', url: '/echo', payload: { a: 1 } })).json(),
    ).toEqual({
      body: { a: 1 },
    });
    const text = await expectSame(t, {
      method: 'PUT',
      url: '/text',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      payload: 'héllo',
    });
    expect(text.json()).toEqual({ type: 'string', body: 'héllo' });
    const empty = await expectSame(t, { method: 'POST', url: '/echo', headers: json, payload: '' });
    expect(empty.json()).toEqual({ body: 'none' });
    await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { ...json, 'content-length': '0' },
    });
    const toJson = await expectSame(t, {
      method: 'POST',
      url: '/typed',
      headers: { 'content-type': 'text/plain' },
      payload: '{"n":1}',
    });
    // A body schema takes JSON only.
    expect(toJson.statusCode).toBe(415);
    await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'Application/JSON ; x=1' },
      payload: '[1]',
    });
  });

  it('400 for malformed JSON and for __proto__ or constructor.prototype keys', async () => {
    const bad = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: json,
      payload: '{"a":',
    });
    expect(bad.statusCode).toBe(400);
    const proto = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: json,
      payload: '{"__proto__":{"x":1}}',
    });
    expect(proto.statusCode).toBe(400);
    await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: json,
      payload: '{"constructor":{"prototype":{"x":1}}}',
    });
  });

  it('413 by Content-Length, 413 for a body over the limit once decoded', async () => {
    const big = JSON.stringify({ s: 'x'.repeat(100) });
    expect(
      (await expectSame(t, { method: 'POST', url: '/echo', headers: json, payload: big }))
        .statusCode,
    ).toBe(413);
    const zipped = gzipSync(big);
    expect(zipped.byteLength).toBeLessThan(64);
    const res = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { ...json, 'content-encoding': 'gzip' },
      payload: zipped,
    });
    expect(res.statusCode).toBe(413);
    for (const [coding, bytes] of [
      ['x-gzip', gzipSync(big)],
      ['deflate', deflateSync(big)],
      ['br', brotliCompressSync(big)],
    ] as const) {
      const decoded = await expectSame(t, {
        method: 'POST',
        url: '/echo',
        headers: { ...json, 'content-encoding': coding },
        payload: bytes,
      });
      expect(decoded.statusCode).toBe(413);
    }
    const exact = JSON.stringify({ s: 'x'.repeat(56) });
    expect(Buffer.byteLength(exact)).toBe(64);
    expect(
      (await expectSame(t, { method: 'POST', url: '/echo', headers: json, payload: exact }))
        .statusCode,
    ).toBe(200);
  });

  it('415 for an unknown media type and for an unknown Content-Encoding', async () => {
    const type = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(type.statusCode).toBe(415);
    const coding = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { ...json, 'content-encoding': 'compress' },
      payload: '{}',
    });
    expect(coding.statusCode).toBe(415);
  });

  it('gzip, x-gzip, deflate, br and identity bodies; corrupt gzip is a 400', async () => {
    const payload = JSON.stringify({ z: 'zipped' });
    for (const [coding, bytes] of [
      ['gzip', gzipSync(payload)],
      ['x-gzip', gzipSync(payload)],
      ['deflate', deflateSync(payload)],
      ['br', brotliCompressSync(payload)],
      ['identity', Buffer.from(payload)],
      ['gzip, br', brotliCompressSync(gzipSync(payload))],
    ] as const) {
      const res = await expectSame(t, {
        method: 'POST',
        url: '/echo',
        headers: { ...json, 'content-encoding': coding },
        payload: bytes,
      });
      expect(res.json()).toEqual({ body: { z: 'zipped' } });
    }
    // A body that decodes to nothing is no body.
    const nothing = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { ...json, 'content-encoding': 'gzip' },
      payload: gzipSync(''),
    });
    expect(nothing.json()).toEqual({ body: 'none' });
    const corrupt = await expectSame(t, {
      method: 'POST',
      url: '/echo',
      headers: { ...json, 'content-encoding': 'gzip' },
      payload: Buffer.from('not gzip at all'),
    });
    expect(corrupt.statusCode).toBe(400);
  });

  it('a Content-Length that is no number is a 400', async () => {
    // light-my-request lets it through to the Fastify engine (Node's parser answers 400 on a
    // socket): the Bun engine's own answer is pinned.
    const { app } = bodies().bun;
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { ...json, 'content-length': '1e1' },
      payload: '{"a":1}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_CONTENT_LENGTH' });
  });
});

describe('middleware that answers before the body is read', () => {
  it("a guard's 401 wins over an invalid JSON body and an over-long one", async () => {
    const guard = apiKey({ verify: (key) => (key === 'good' ? { name: 'a' } : undefined) });
    const records: Record<string, RequestMetric[]> = { fastify: [], bun: [] };
    const t = twin({ bodyLimit: 64 }, (app) =>
      app.addRoutes(post('/guarded', { middleware: [guard] }, (c) => ({ body: c.body }))),
    );
    for (const engine of ENGINES) {
      t[engine].app.setMetricsCollector({ recordRequest: (m) => records[engine]!.push(m) });
    }
    const denied = await expectSame(t, {
      method: 'POST',
      url: '/guarded',
      headers: json,
      payload: '{"a":',
    });
    expect(denied.statusCode).toBe(401);
    const long = JSON.stringify({ s: 'x'.repeat(100) });
    expect(
      (await expectSame(t, { method: 'POST', url: '/guarded', headers: json, payload: long }))
        .statusCode,
    ).toBe(401);
    const ok = await expectSame(t, {
      method: 'POST',
      url: '/guarded',
      headers: { ...json, 'x-api-key': 'good' },
      payload: '{"a":1}',
    });
    expect(ok.json()).toEqual({ body: { a: 1 } });
    const allowedBad = await expectSame(t, {
      method: 'POST',
      url: '/guarded',
      headers: { ...json, 'x-api-key': 'good' },
      payload: '{"a":',
    });
    expect(allowedBad.statusCode).toBe(400);
    expectSameLogs(t);
    const shape = (ms: RequestMetric[]) => ms.map(({ durationMs: _d, ...m }) => m);
    expect(shape(records.bun!)).toEqual(shape(records.fastify!));
  });
});

describe('idempotency keys on the Bun engine', () => {
  it('replays the first answer of a key, refuses the key with another body', async () => {
    const t = twin({}, (app) => {
      let n = 0;
      app.addRoutes(
        post('/orders', { middleware: [idempotency({ store: memoryIdempotencyStore() })] }, (c) => {
          n += 1;
          return { n, body: c.body };
        }),
        patch('/free', () => 1),
      );
    });
    const request = (key: string, body: Record<string, number>) => ({
      method: 'POST' as const,
      url: '/orders',
      headers: { 'idempotency-key': key },
      payload: body,
    });
    const first = await expectSame(t, request('k-1', { item: 1 }));
    const replay = await expectSame(t, request('k-1', { item: 1 }));
    expect(replay.body).toBe(first.body);
    const other = await expectSame(t, request('k-1', { item: 2 }));
    expect(other.statusCode).toBe(422);
    await expectSame(t, { method: 'POST', url: '/orders', payload: { item: 3 } });
    expectSameLogs(t);
  });
});
