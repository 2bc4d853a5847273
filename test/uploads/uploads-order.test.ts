import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RequestMetric } from '../../src/extend/index.js';
import {
  type App,
  file,
  type Middleware,
  multipart,
  post,
  rateLimit,
  unauthorized,
} from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { serve } from '../support/serve.js';
import { FORM_TYPE, formBody, sendUpload } from '../support/upload-client.js';

let uploadDir: string;
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  uploadDir = mkdtempSync(join(tmpdir(), 'keelson-uploads-order-'));
  process.env.TMPDIR = uploadDir;
});
afterAll(() => {
  process.env.TMPDIR = savedTmp;
  rmSync(uploadDir, { recursive: true, force: true });
});

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const TOKEN = { authorization: 'Bearer s3cret' };
const requireAuth: Middleware = async (c, next) => {
  if (c.request.headers.authorization !== TOKEN.authorization) throw unauthorized();
  return next();
};

const MiB = 1024 * 1024;
// What the client sends before it waits for an answer that should not wait for the body.
const HOLD = 64 * 1024;
const BIN = 'application/octet-stream';

/** An API behind a guard and a limit of `max` requests: an upload route and a JSON route. */
async function guardedApi(max = 5) {
  const { app, lines } = testApp();
  apps.push(app);
  const metrics: RequestMetric[] = [];
  app.setMetricsCollector({ recordRequest: (m) => void metrics.push(m) });
  let handled = 0;
  app.group('/api', requireAuth, rateLimit({ max, windowMs: 60_000 })).addRoutes(
    post('/files', { body: multipart({ doc: file({ maxBytes: 8 * MiB, types: [BIN] }) }) }, (c) => {
      handled++;
      return { size: c.body.doc.size };
    }),
    post('/notes', { body: z.object({ text: z.string() }) }, (c) => {
      handled++;
      return c.body;
    }),
  );
  const port = await serve(app);
  return { port, lines, metrics, handled: () => handled };
}

const bigForm = (type = BIN, size = 5 * MiB) => formBody([['doc', Buffer.alloc(size, 7), type]]);
const asForm = (headers: Record<string, string> = {}) => ({
  headers: { 'content-type': FORM_TYPE, ...headers },
});

describe('middleware runs before an upload is read', () => {
  it('answers 401 to a 5 MiB upload without a token before reading it, and closes the connection', async () => {
    const { port, lines, handled } = await guardedApi();
    const res = await sendUpload(port, '/api/files', bigForm(), { ...asForm(), holdAfter: HOLD });
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
    // Answered while the body was still to come, and nothing was written to disk.
    expect(res.bodySentBeforeAnswer).toBe(HOLD);
    expect(readdirSync(uploadDir)).toEqual([]);
    expect(handled()).toBe(0);
    const entries = requestEntries(lines);
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([['POST', '/api/files', 401]]);
  });

  it('answers 401, not 415 or 413, to a wrong type or an oversized file without a token', async () => {
    const { port } = await guardedApi();
    const wrongType = await sendUpload(port, '/api/files', bigForm('image/gif', 1000), asForm());
    const tooBig = await sendUpload(port, '/api/files', bigForm(BIN, 9 * MiB), asForm());
    expect([wrongType.status, tooBig.status]).toEqual([401, 401]);
  });

  it('answers the sixth upload 429 before reading its body, and counts 413s and 415s', async () => {
    const { port, handled } = await guardedApi(5);
    const authed = asForm(TOKEN);
    const statuses: number[] = [];
    statuses.push((await sendUpload(port, '/api/files', bigForm('image/gif', 10), authed)).status);
    statuses.push((await sendUpload(port, '/api/files', bigForm(BIN, 9 * MiB), authed)).status);
    for (let i = 0; i < 3; i++) {
      statuses.push((await sendUpload(port, '/api/files', bigForm(BIN, 1000), authed)).status);
    }
    const sixth = await sendUpload(port, '/api/files', bigForm(), { ...authed, holdAfter: HOLD });
    statuses.push(sixth.status);
    expect(statuses).toEqual([415, 413, 200, 200, 200, 429]);
    expect(sixth.bodySentBeforeAnswer).toBe(HOLD);
    expect(sixth.headers.connection).toBe('close');
    expect(handled()).toBe(3);
  });

  it('runs the guard before a JSON body is read too: 401, not 400, to a broken body', async () => {
    const { port, lines } = await guardedApi();
    const json = { 'content-type': 'application/json' };
    const broken = await sendUpload(port, '/api/notes', Buffer.from('{"text": '), {
      headers: json,
    });
    expect(broken.status).toBe(401);
    const big = Buffer.from(JSON.stringify({ text: 'x'.repeat(900_000) }));
    const large = await sendUpload(port, '/api/notes', big, { headers: json, holdAfter: HOLD });
    expect([large.status, large.headers.connection]).toEqual([401, 'close']);
    expect(large.bodySentBeforeAnswer).toBe(HOLD);
    const fine = await sendUpload(port, '/api/notes', Buffer.from('{"text":"hi"}'), {
      headers: { ...json, ...TOKEN },
    });
    expect([fine.status, JSON.parse(fine.body)]).toEqual([200, { text: 'hi' }]);
    const bad = await sendUpload(port, '/api/notes', Buffer.from('{"text": '), {
      headers: { ...json, ...TOKEN },
    });
    expect(bad.status).toBe(400);
    expect(requestEntries(lines).map((e) => [e.path, e.status])).toEqual([
      ['/api/notes', 401],
      ['/api/notes', 401],
      ['/api/notes', 200],
      ['/api/notes', 400],
    ]);
  });
});

describe('one log entry per upload, whatever happens to it', () => {
  it('closes the connection after an early 415, and writes no phantom entry or metric for the rest of the body', async () => {
    const { port, lines, metrics } = await guardedApi();
    const res = await sendUpload(port, '/api/files', bigForm('image/gif', 2 * MiB), asForm(TOKEN));
    expect([res.status, res.headers.connection]).toEqual([415, 'close']);
    const entries = requestEntries(lines);
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([['POST', '/api/files', 415]]);
    expect(metrics.map((m) => [m.method, m.route, m.statusCode])).toEqual([
      ['POST', '/api/files', 415],
    ]);
  });

  it('logs a client that aborts mid-upload once, under its route, with the time it took', async () => {
    const { port, lines, metrics } = await guardedApi();
    const started = performance.now();
    await sendUpload(port, '/api/files', bigForm(), { ...asForm(TOKEN), abortAfter: 2 * MiB });
    await expect.poll(() => requestEntries(lines).length).toBe(1);
    const elapsed = performance.now() - started;
    const [entry] = requestEntries(lines);
    expect(entry).toMatchObject({ method: 'POST', path: '/api/files', status: 400 });
    expect(entry!.error).toBe(
      'the client closed the connection before the end of the request body',
    );
    expect(metrics.map((m) => [m.method, m.route])).toEqual([['POST', '/api/files']]);
    const duration = Number.parseFloat(String(entry!.duration));
    expect(duration).toBeGreaterThan(0);
    expect(duration).toBeLessThanOrEqual(elapsed);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestEntries(lines)).toHaveLength(1);
    await expect.poll(() => readdirSync(uploadDir)).toEqual([]);
  });
});

describe('a JSON body cut short by a client that leaves', () => {
  it('is logged once, under its route', async () => {
    const { port, lines, metrics } = await guardedApi();
    const big = Buffer.from(JSON.stringify({ text: 'x'.repeat(900_000) }));
    await sendUpload(port, '/api/notes', big, {
      headers: { 'content-type': 'application/json', ...TOKEN },
      abortAfter: 100_000,
    });
    await expect.poll(() => metrics.length).toBe(1);
    expect(metrics.map((m) => [m.method, m.route])).toEqual([['POST', '/api/notes']]);
    const [entry] = requestEntries(lines);
    expect(entry).toMatchObject({
      path: '/api/notes',
      error: 'the client closed the connection before the end of the request body',
    });
  });
});

describe('the route timeout covers reading the upload', () => {
  it('answers 504 to an upload that stalls, closes the connection, logs it once and keeps no file', async () => {
    const { app, lines } = testApp();
    apps.push(app);
    app.addRoutes(
      post(
        '/slow',
        { body: multipart({ doc: file({ maxBytes: 8 * MiB }) }), timeoutMs: 100 },
        (c) => ({ size: c.body.doc.size }),
      ),
    );
    const port = await serve(app);
    const res = await sendUpload(port, '/slow', bigForm(), {
      ...asForm(),
      holdAfter: HOLD,
      holdMs: 3_000,
    });
    expect([res.status, res.headers.connection]).toEqual([504, 'close']);
    expect(res.bodySentBeforeAnswer).toBe(HOLD);
    await expect.poll(() => readdirSync(uploadDir)).toEqual([]);
    expect(requestEntries(lines).map((e) => [e.path, e.status])).toEqual([['/slow', 504]]);
  });
});

describe('compressed uploads', () => {
  it('answers 415 at once to a gzip-encoded form, small or large, and never hangs', async () => {
    const { port, lines } = await guardedApi();
    const small = gzipSync(formBody([['doc', Buffer.from('hello'), BIN]]));
    // Random bytes: the gzipped body stays ~510 KB, more than any buffer on the way holds.
    const large = gzipSync(formBody([['doc', randomBytes(510 * 1024), BIN]]));
    for (const body of [small, large]) {
      const res = await sendUpload(port, '/api/files', body, {
        ...asForm({ ...TOKEN, 'content-encoding': 'gzip' }),
        timeoutMs: 5_000,
      });
      expect(res.status, String(body.length)).toBe(415);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect(requestEntries(lines).map((e) => e.status)).toEqual([415, 415]);
  });
});
