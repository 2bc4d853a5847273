// `Expect: 100-continue` over a real socket: a request refused before its body (401 from a guard,
// 413 from its Content-Length, 415 from its type) is answered without a `100 Continue`, so the
// client never sends the body; an accepted one gets `100 Continue` when the body is read.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, type Middleware, post, unauthorized } from '../../src/index.js';
import { memoryLogger } from '../app/helpers.js';
import { serve } from '../support/serve.js';

const guard: Middleware = (c, next) => {
  if (c.request.headers.authorization !== 'Bearer ok') throw unauthorized();
  return next();
};

let app: App;
let port: number;
beforeAll(async () => {
  app = new App({
    serviceName: 'continue',
    env: 'development',
    logger: memoryLogger().logger,
    bodyLimit: 1024,
  });
  app.addRoutes(
    post('/notes', { middleware: [guard], body: z.object({ n: z.number() }) }, (c) => c.body),
  );
  port = await serve(app);
});
afterAll(() => app.close());

/** The text the server sends until it has sent a final (non-1xx) status line and headers. */
function untilFinal(socket: Socket, seen: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      seen.push(chunk.toString('latin1'));
      const final = /HTTP\/1\.1 [2-5]\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n/.exec(text);
      if (final) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => resolve(text));
  });
}

function head(headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `POST /notes HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\n${lines.join('')}\r\n`;
}

describe('Expect: 100-continue', () => {
  const refused: [string, Record<string, string>, number][] = [
    ['no credentials', { 'content-type': 'application/json', 'content-length': '7' }, 401],
    [
      'a body over the limit',
      { authorization: 'Bearer ok', 'content-type': 'application/json', 'content-length': '4096' },
      413,
    ],
    [
      'a type no parser takes',
      { authorization: 'Bearer ok', 'content-type': 'application/x-nope', 'content-length': '7' },
      415,
    ],
  ];
  for (const [what, headers, status] of refused) {
    it(`answers ${status} to ${what} without a 100 Continue, the body never sent`, async () => {
      const socket = connect(port, '127.0.0.1');
      const seen: string[] = [];
      const answered = untilFinal(socket, seen);
      socket.write(head(headers));
      const text = await answered;
      socket.destroy();
      expect(text.startsWith(`HTTP/1.1 ${status} `), text).toBe(true);
      expect(text).not.toContain('100 Continue');
    });
  }

  it('sends 100 Continue when the body is read, then the answer', async () => {
    const socket = connect(port, '127.0.0.1');
    const seen: string[] = [];
    const continued = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        if (chunk.toString('latin1').includes('HTTP/1.1 100 Continue\r\n')) {
          socket.off('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
    });
    socket.write(
      head({
        authorization: 'Bearer ok',
        'content-type': 'application/json',
        'content-length': '7',
        connection: 'close',
      }),
    );
    await continued;
    const answered = untilFinal(socket, seen);
    socket.write('{"n":1}');
    const text = await answered;
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});
