import { constants, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, type AppOptions, get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

const TEXT = 'the same line of text, again and again\n'.repeat(200);

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function start(options: Partial<AppOptions>) {
  const { app } = testApp(options);
  apps.push(app);
  app.addRoutes(
    get('/typed', (c) => {
      c.reply.type(String(c.query.type));
      // A Buffer: Fastify adds no charset to its type.
      return Buffer.from(TEXT);
    }),
    post('/echo', { body: z.object({ a: z.number() }) }, (c) => c.body),
  );
  return app;
}

async function encodingOf(app: App, type: string, accept = 'gzip') {
  const res = await app.inject({
    url: `/typed?type=${encodeURIComponent(type)}`,
    headers: { 'accept-encoding': accept },
  });
  expect(res.statusCode, type).toBe(200);
  return { encoding: res.headers['content-encoding'], length: res.rawPayload.length };
}

describe('compression: which types', () => {
  it('compresses text, JSON, XML and octet-stream types the mime-db does not know, and nothing else', async () => {
    const app = start({ compress: true });
    const cases: [string, string | undefined][] = [
      ['text/x-keelson', 'gzip'],
      ['application/x-keelson+json', 'gzip'],
      ['application/x-keelson+json; charset=utf-8', 'gzip'],
      ['x-keelson/json', 'gzip'],
      ['x-keelson/text', 'gzip'],
      ['x-keelson/xml', 'gzip'],
      ['application/x-keelson+text', 'gzip'],
      ['application/x-keelson+xml', 'gzip'],
      ['application/x-keelson-octet-stream', 'gzip'],
      ['x-text/x-keelson', undefined],
      ['application/x-keelson+jsonx', undefined],
      ['application/x-keelson+textual', undefined],
      ['application/x-keelson+xmlish', undefined],
      ['application/x-keelson-octet-streams', undefined],
      ['image/x-keelson', undefined],
      ['text/event-stream', undefined],
    ];
    const got: [string, string | undefined][] = [];
    for (const [type] of cases) got.push([type, (await encodingOf(app, type)).encoding]);
    expect(got).toEqual(cases);
  });

  it('asks customTypes, a RegExp or a function, about each type, but never compresses an event stream', async () => {
    const byRegExp = start({ compress: { customTypes: /^image\/x-keelson$/ } });
    expect((await encodingOf(byRegExp, 'image/x-keelson')).encoding).toBe('gzip');
    expect((await encodingOf(byRegExp, 'image/x-other')).encoding).toBeUndefined();
    const asked: string[] = [];
    const byFunction = start({
      compress: {
        customTypes: (type) => {
          asked.push(type);
          return type.startsWith('image/');
        },
      },
    });
    expect((await encodingOf(byFunction, 'image/x-keelson')).encoding).toBe('gzip');
    expect((await encodingOf(byFunction, 'audio/x-keelson')).encoding).toBeUndefined();
    expect(asked).toContain('image/x-keelson');
    const all = start({ compress: { customTypes: () => true } });
    expect((await encodingOf(all, 'x-text/event-stream')).encoding).toBe('gzip');
    expect((await encodingOf(all, 'TEXT/EVENT-STREAM')).encoding).toBeUndefined();
  });
});

describe('compression: options', () => {
  it('hands brotliOptions and zlibOptions to the encoders', async () => {
    const stored = start({ compress: { zlibOptions: { level: 0 } } });
    expect((await encodingOf(stored, 'text/plain', 'gzip')).length).toBeGreaterThan(TEXT.length);
    const brDefault = await encodingOf(start({ compress: true }), 'text/plain', 'br');
    const brFast = await encodingOf(
      start({ compress: { brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } } } }),
      'text/plain',
      'br',
    );
    expect(brFast.encoding).toBe('br');
    expect(brFast.length).not.toBe(brDefault.length);
  });

  it('refuses null like any other non-object', () => {
    expect(() => testApp({ compress: null as never })).toThrow(
      'compress must be true, false or an options object, got object',
    );
  });

  it('leaves request bodies alone: a gzip body is the body layer’s to decode', async () => {
    const app = start({ compress: true });
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{"a":1}'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ a: 1 });
  });
});
