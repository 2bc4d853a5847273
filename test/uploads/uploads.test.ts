import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, file, multipart, post } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
let uploadDir: string;
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  uploadDir = mkdtempSync(join(tmpdir(), 'keelson-uploads-test-'));
  process.env.TMPDIR = uploadDir;
});
afterAll(() => {
  process.env.TMPDIR = savedTmp;
  rmSync(uploadDir, { recursive: true, force: true });
});
const leftovers = () => readdirSync(uploadDir);

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const seen: { name: string; type: string; size: number; text: string; note: string }[] = [];

function avatarApp() {
  const { app, lines } = testApp();
  app.addRoutes(
    post(
      '/avatar',
      {
        body: multipart({
          avatar: file({ maxBytes: 1024, types: ['image/png'] }),
          note: z.string().min(2),
          size: z.coerce.number().int().optional(),
        }),
      },
      async (c) => {
        const { avatar, note } = c.body;
        const bytes = new Uint8Array(await avatar.arrayBuffer());
        seen.push({
          name: avatar.name,
          type: avatar.type,
          size: avatar.size,
          text: String(bytes[1]),
          note,
        });
        return { name: avatar.name, size: avatar.size, leftovers: leftovers().length };
      },
    ),
    post('/json', { body: z.object({ a: z.number() }) }, (c) => c.body),
  );
  return { app, lines };
}

async function serve(app: App): Promise<string> {
  apps.push(app);
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
}

function form(parts: Record<string, string | Blob | [Blob, string]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (Array.isArray(v)) f.append(k, v[0], v[1]);
    else f.append(k, v);
  }
  return f;
}

const png = (bytes: Uint8Array = PNG) =>
  [new Blob([bytes], { type: 'image/png' }), 'me.png'] as [Blob, string];

describe('uploads (real socket)', () => {
  it('hands the handler a Web File and the validated fields, then removes the temporary file', async () => {
    const { app, lines } = avatarApp();
    const url = await serve(app);
    const res = await fetch(`${url}/avatar`, {
      method: 'POST',
      body: form({ avatar: png(), note: 'hi there' }),
    });
    expect(res.status).toBe(200);
    // While the handler ran, its file was on disk.
    expect(await res.json()).toEqual({ name: 'me.png', size: PNG.length, leftovers: 1 });
    expect(seen.at(-1)).toEqual({
      name: 'me.png',
      type: 'image/png',
      size: 12,
      text: '80',
      note: 'hi there',
    });
    await expect.poll(leftovers).toEqual([]);
    expect(requestEntries(lines).find((e) => e.path === '/avatar')).toMatchObject({ status: 200 });
  });

  it('answers 413 problem+json for a file over maxBytes and keeps no file', async () => {
    const { app } = avatarApp();
    const url = await serve(app);
    const big = new Uint8Array(64 * 1024).fill(7);
    const res = await fetch(`${url}/avatar`, {
      method: 'POST',
      body: form({ avatar: png(big), note: 'hi there' }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The file in "avatar" is larger than 1024 bytes.',
    });
    await expect.poll(leftovers).toEqual([]);
  });

  it('answers 415 for a file of a type the field does not take', async () => {
    const { app } = avatarApp();
    const url = await serve(app);
    const gif = [new Blob([PNG], { type: 'image/gif' }), 'me.gif'] as [Blob, string];
    const res = await fetch(`${url}/avatar`, {
      method: 'POST',
      body: form({ avatar: gif, note: 'hi there' }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(leftovers()).toEqual([]);
  });

  it('answers 422 naming the missing file and the bad field, and keeps no file', async () => {
    const { app } = avatarApp();
    const url = await serve(app);
    const missing = await fetch(`${url}/avatar`, { method: 'POST', body: form({ note: 'x' }) });
    expect(missing.status).toBe(422);
    const body = (await missing.json()) as { errors: { path: string }[] };
    expect(body.errors.map((e) => e.path).sort()).toEqual(['body.avatar', 'body.note']);

    const bad = await fetch(`${url}/avatar`, {
      method: 'POST',
      body: form({ avatar: png(), note: 'ok!', size: 'big' }),
    });
    expect(bad.status).toBe(422);
    expect(
      ((await bad.json()) as { errors: { path: string }[] }).errors.map((e) => e.path),
    ).toEqual(['body.size']);
    await expect.poll(leftovers).toEqual([]);
  });

  it('answers 422 for a file field the route does not declare', async () => {
    const { app } = avatarApp();
    const url = await serve(app);
    // The form as one buffer, written at once: the 422 comes before the body's end, and a body
    // still being streamed part by part could meet the closing connection (EPIPE) under load.
    const encoded = new Response(form({ other: png(), avatar: png(), note: 'ok!' }));
    const res = await fetch(`${url}/avatar`, {
      method: 'POST',
      headers: { 'content-type': encoded.headers.get('content-type')! },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      errors: [{ path: 'body.other', message: 'Unexpected file' }],
    });
  });

  it('answers 415 to a JSON body on an upload route, and 415 to a form on a JSON route', async () => {
    const { app } = avatarApp();
    const url = await serve(app);
    const json = await fetch(`${url}/avatar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const formOnJson = await fetch(`${url}/json`, { method: 'POST', body: form({ a: '1' }) });
    expect(formOnJson.status).toBe(415);
  });

  it('removes the temporary file when the handler throws', async () => {
    const { app } = testApp();
    let sawFile = false;
    app.addRoutes(
      post('/fails', { body: multipart({ doc: file() }) }, () => {
        sawFile = leftovers().length === 1;
        throw new Error('storage is down');
      }),
    );
    const url = await serve(app);
    const res = await fetch(`${url}/fails`, { method: 'POST', body: form({ doc: png() }) });
    expect(res.status).toBe(500);
    expect(sawFile).toBe(true);
    await expect.poll(leftovers).toEqual([]);
  });

  it('leaves no temporary file when the client sends half the upload and closes', async () => {
    const { app, lines } = testApp();
    let handlerRan = false;
    app.addRoutes(
      post('/big', { body: multipart({ blob: file({ maxBytes: 10_000_000 }) }) }, () => {
        handlerRan = true;
        return 'ok';
      }),
    );
    const url = new URL(await serve(app));
    const boundary = 'keelsonboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="b.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const socket = net.connect(Number(url.port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(
      `POST /big HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 2000000\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(500_000, 1));
    // The server has started the temporary file once it has read part of the upload.
    await expect.poll(() => leftovers().length).toBe(1);
    socket.destroy();
    await expect.poll(leftovers).toEqual([]);
    expect(handlerRan).toBe(false);
    await expect
      .poll(() => requestEntries(lines).filter((e) => e.path === '/big').length)
      .toBeLessThanOrEqual(1);
  });

  it('documents the body as multipart/form-data with format binary for files', async () => {
    const { app } = avatarApp();
    const doc = (await app.openapi()) as unknown as {
      paths: Record<
        string,
        { post: { requestBody: { content: Record<string, { schema: unknown }> } } }
      >;
      components?: { schemas?: Record<string, unknown> };
    };
    const content = doc.paths['/avatar']!.post.requestBody.content;
    expect(Object.keys(content)).toEqual(['multipart/form-data']);
    const text = JSON.stringify(doc);
    expect(text).toContain('"format":"binary"');
    expect(text).toContain('"contentMediaType":"image/png"');
  });
});

describe('multipart() at registration', () => {
  it('refuses a field that is neither file() nor a Standard Schema, and takes a function carrying ~standard, as ArkType types are', () => {
    expect(() => multipart({ note: { type: 'string' } as never })).toThrow(
      'multipart(): the field "note" must be file() or a Standard Schema',
    );
    const callable = Object.assign(() => true, { '~standard': z.string()['~standard'] });
    expect(() => multipart({ note: callable as never })).not.toThrow();
  });
});
