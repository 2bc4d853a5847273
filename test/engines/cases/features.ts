/**
 * Engine cases: the features the Bun engine may refuse (cookies, compression, static files,
 * WebSockets, uploads, server-sent events). Each works on the Fastify engine with these options;
 * on the Bun engine it either works the same (cookies, compression, event streams) or is refused
 * by name, at
 * the moment the contract gives. The one place where the cases branch on the engine: the
 * contracts differ here.
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventStream, file, get, multipart, post, ws } from '../../../src/index.js';
import { type EngineName, engineApp, listen, settled } from '../harness.js';

/** Expects `thrown` to be the Bun engine's refusal of a feature matching `feature`. */
function expectRefused(thrown: unknown, feature: RegExp): void {
  expect(thrown).toMatchObject({
    code: 'KEELSON_ENGINE_UNSUPPORTED',
    feature: expect.stringMatching(feature),
    message: expect.stringMatching(/Bun engine/),
  });
  expect((thrown as Error).message).toMatch(feature);
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw, got none');
}

/** What `ticks()` reads as on the wire. */
const EVENTS = ': stream open\n\nid: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\n';

async function* ticks() {
  yield { id: '1', data: { n: 1 } };
  yield { id: '2', data: { n: 2 } };
}

/** The feature cases, run on `engine`. */
export function featureCases(engine: EngineName): void {
  describe('features the Bun engine may refuse', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-engines-'));
    writeFileSync(join(dir, 'a.txt'), 'static text');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('the cookies option: signed cookies set, read back, and a forged one refused', async () => {
      const made = engineApp(engine, { cookies: { secret: 's'.repeat(32) } });
      made.app.addRoutes(
        get('/set', (c) => {
          c.setCookie('session', 'u1', { signed: true });
          c.setCookie('theme', 'dark');
          return { ok: true };
        }),
        get('/read', (c) => ({
          session: c.signedCookie('session') ?? null,
          theme: c.cookies.theme ?? null,
        })),
        get('/clear', (c) => {
          c.clearCookie('theme');
          return c.noContent();
        }),
      );
      const s = await listen(made);
      const set = (await s.send('/set')).headers['set-cookie'] ?? [];
      expect(set).toHaveLength(2);
      // Keelson's defaults on both engines: Path=/, HttpOnly, SameSite=Lax.
      expect(set[0]).toMatch(/^session=u1\.[A-Za-z0-9+/]+; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(set[1]).toBe('theme=dark; Path=/; HttpOnly; SameSite=Lax');
      const cookie = set.map((c) => c.split(';')[0]).join('; ');
      const read = await s.send('/read', { headers: { cookie } });
      expect(read.json()).toEqual({ session: 'u1', theme: 'dark' });
      const forged = await s.send('/read', { headers: { cookie: 'session=u1.forged; theme=x' } });
      expect(forged.json()).toEqual({ session: null, theme: 'x' });
      const cleared = (await s.send('/clear')).headers['set-cookie'];
      expect(cleared).toEqual([
        'theme=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
      ]);
      await s.close();
    });

    it('the compress option: gzip or br by Accept-Encoding, above the threshold only', async () => {
      const made = engineApp(engine, { compress: true });
      const big = { text: 'x'.repeat(4096) };
      made.app.addRoutes(
        get('/big', () => big),
        get('/small', () => ({ ok: true })),
      );
      const s = await listen(made);
      const gzip = await s.send('/big', { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers.vary).toBe('accept-encoding');
      expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(big);
      const br = await s.send('/big', { headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(big);
      const small = await s.send('/small', { headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json()).toEqual({ ok: true });
      const none = await s.send('/big');
      expect(none.headers['content-encoding']).toBeUndefined();
      expect(none.json()).toEqual(big);
      await s.close();
    });

    it('app.static(): the file, or refused at the call', async () => {
      const made = engineApp(engine);
      if (engine === 'bun') {
        return expectRefused(
          thrownBy(() => made.app.static('/assets', dir)),
          /static/,
        );
      }
      made.app.static('/assets', dir);
      const s = await listen(made);
      const res = await s.send('/assets/a.txt');
      expect([res.status, res.text]).toEqual([200, 'static text']);
      await s.close();
    });

    it('a ws() route: 426 to a plain GET, or refused when the app starts', async () => {
      const made = engineApp(engine);
      made.app.addRoutes(ws('/chat', { onMessage: (m, socket) => socket.send(String(m)) }));
      if (engine === 'bun') {
        await made.app.ready().then(
          () => expect.fail('ready() should refuse a WebSocket route on the Bun engine'),
          (err: unknown) => expectRefused(err, /websocket|ws\(\)/i),
        );
        return expect(made.app.inject('/chat')).rejects.toMatchObject({
          code: 'KEELSON_ENGINE_UNSUPPORTED',
        });
      }
      const s = await listen(made);
      expect((await s.send('/chat')).status).toBe(426);
      await s.close();
    });

    it('a multipart() body: 415 to JSON, or refused when the app starts', async () => {
      const made = engineApp(engine);
      made.app.addRoutes(
        post('/avatar', { body: multipart({ avatar: file(), note: z.string() }) }, (c) => ({
          size: c.body.avatar.size,
        })),
      );
      if (engine === 'bun') {
        return made.app.ready().then(
          () => expect.fail('ready() should refuse an upload route on the Bun engine'),
          (err: unknown) => expectRefused(err, /multipart|upload/i),
        );
      }
      const s = await listen(made);
      expect((await s.send('/avatar', { method: 'POST', body: { note: 'x' } })).status).toBe(415);
      await s.close();
    });

    it('an event-stream route: the events, one log entry when the stream ends', async () => {
      const made = engineApp(engine);
      made.app.addRoutes(
        get('/ticks', { responses: { 200: eventStream('ticks') } }, (c) => c.sse(ticks())),
      );
      const s = await listen(made);
      const res = await s.send('/ticks');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.headers['cache-control']).toBe('no-cache, no-transform');
      expect(res.headers['x-accel-buffering']).toBe('no');
      expect(res.text).toBe(EVENTS);
      await settled(made, 1);
      expect(made.requestEntries().map((e) => [e.level, e.path, e.status])).toEqual([
        ['info', '/ticks', 200],
      ]);
      expect(made.metrics.map((m) => [m.route, m.statusCode])).toEqual([['/ticks', 200]]);
      await s.close();
    });

    it('c.sse() on a route that declares no stream: the events', async () => {
      const made = engineApp(engine);
      made.app.addRoutes(get('/undeclared', (c) => c.sse(ticks())));
      const s = await listen(made);
      const res = await s.send('/undeclared');
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.text).toBe(EVENTS);
      await s.close();
    });
  });
}
