import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, type AppOptions, get } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { send, serve } from '../support/serve.js';

const BIG = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item number ${i}` })) };
const BIG_JSON = JSON.stringify(BIG);

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function start(options: Partial<AppOptions>) {
  const { app, lines } = testApp(options);
  app.addRoutes(
    get('/big', () => BIG),
    get('/small', () => ({ ok: true })),
    get('/events', (c) => {
      c.reply.type('text/event-stream');
      return 'data: {"n":1}\n\n'.repeat(200);
    }),
    get('/image', (c) => {
      c.reply.type('image/png');
      return Buffer.alloc(4096, 7);
    }),
  );
  apps.push(app);
  return { port: await serve(app), lines };
}

const decoders: Record<string, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  deflate: inflateSync,
};

describe('compression', () => {
  it('is off by default', async () => {
    const { port } = await start({});
    const res = await send(port, '/big', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(BIG_JSON);
  });

  it('picks br, gzip or deflate from Accept-Encoding, with Vary: Accept-Encoding', async () => {
    const { port, lines } = await start({ compress: true });
    const cases: [string, string][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['br;q=0.1, gzip;q=0.9', 'gzip'],
    ];
    for (const [accept, expected] of cases) {
      const res = await send(port, '/big', { headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(res.headers.vary?.toLowerCase(), accept).toContain('accept-encoding');
      expect(res.body.length, accept).toBeLessThan(BIG_JSON.length / 2);
      expect(decoders[expected]!(res.body).toString('utf8'), accept).toBe(BIG_JSON);
    }
    expect(requestEntries(lines).map((e) => e.status)).toEqual([200, 200, 200, 200]);
  });

  it('sends bodies under 1 KiB, and to clients that accept no encoding, as they are', async () => {
    const { port } = await start({ compress: true });
    const small = await send(port, '/small', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.text).toBe('{"ok":true}');
    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const res = await send(port, '/big', { headers });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.text).toBe(BIG_JSON);
    }
  });

  it('never compresses event streams or already-compressed types', async () => {
    const { port } = await start({ compress: { customTypes: () => true } });
    const events = await send(port, '/events', { headers: { 'accept-encoding': 'gzip' } });
    expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(events.headers['content-encoding']).toBeUndefined();
    const { port: p2 } = await start({ compress: true });
    const image = await send(p2, '/image', { headers: { 'accept-encoding': 'gzip' } });
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.length).toBe(4096);
  });

  it('takes a threshold and a list of encodings', async () => {
    const { port } = await start({ compress: { threshold: 0, encodings: ['gzip'] } });
    const small = await send(port, '/small', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(small.body).toString()).toBe('{"ok":true}');
  });

  it('refuses a bad option when the app is created', () => {
    expect(() => testApp({ compress: 'yes' as never })).toThrow(
      'compress must be true, false or an options object, got string',
    );
    expect(() => testApp({ compress: { threshold: -1 } })).toThrow(
      'compress.threshold must be an integer >= 0, got -1',
    );
  });
});
