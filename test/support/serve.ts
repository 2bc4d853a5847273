/**
 * Serves an App on a real socket of 127.0.0.1 and sends requests with node:http, which
 * neither decompresses nor normalises what it is given.
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { App } from '../../src/index.js';
import { parseResponse, type RawResponse } from '../reliability/raw-http.js';

/** One answer, its body as raw bytes. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
}

/** Builds the app and binds a free port; resolves to the port. */
export async function serve(app: App): Promise<number> {
  await app.ready();
  const engine = app.engine;
  if (engine.name === 'bun') {
    // The Bun engine's handler on a server of the test's own (only under Bun).
    const bun = (globalThis as { Bun?: { serve(o: object): { port: number } } }).Bun!;
    return bun.serve({ port: 0, hostname: '127.0.0.1', fetch: engine.fetch }).port;
  }
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return (app.fastify.server.address() as AddressInfo).port;
}

/** Sends one request; the path is written as given. */
export function send(
  port: number,
  path: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends `GET <path>` exactly as written (no client normalises it) on a fresh connection and
 * reads until the server closes it. Unlike a half-closing client, waits for slow answers.
 */
export function rawGet(port: number, path: string): Promise<RawResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    let error: string | undefined;
    socket.setTimeout(5_000, () => {
      error = 'client timeout';
      socket.destroy();
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on('close', () => resolve(parseResponse(Buffer.concat(chunks), error)));
    socket.write(
      Buffer.from(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 'latin1'),
    );
  });
}
