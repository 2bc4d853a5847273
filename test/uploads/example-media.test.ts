import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/index.js';
import { exampleApp } from '../support/example-app.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(): Promise<string> {
  app = await exampleApp({ port: 0, host: '127.0.0.1' });
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
}

describe('the avatar upload and the tick stream of examples/basic', () => {
  it('takes a PNG avatar from an authorized client and refuses one without a token', async () => {
    const url = await serve();
    const form = () => {
      const f = new FormData();
      f.append('avatar', new Blob([PNG], { type: 'image/png' }), 'me.png');
      f.append('note', 'hello');
      return f;
    };
    const denied = await fetch(`${url}/api/v1/avatar`, { method: 'POST', body: form() });
    expect(denied.status).toBe(401);
    const res = await fetch(`${url}/api/v1/avatar`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-token' },
      body: form(),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      name: 'me.png',
      type: 'image/png',
      size: 12,
      note: 'hello',
    });
  });

  it('streams ticks numbered on from Last-Event-ID', async () => {
    const url = await serve();
    const controller = new AbortController();
    const res = await fetch(`${url}/ticks?everyMs=10`, {
      headers: { 'last-event-id': '7' },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('id: 9\n')) text += (await reader.read()).value ?? '';
    controller.abort();
    expect(text).toMatch(/id: 8\nevent: tick\ndata: \{"n":8,"at":"[^"]+"\}\n\n/);
  });

  it('documents the upload as multipart/form-data and the ticks as text/event-stream', async () => {
    app = await exampleApp();
    const doc = JSON.stringify(await app.openapi());
    expect(doc).toContain('"multipart/form-data"');
    expect(doc).toContain('"text/event-stream"');
  });
});
