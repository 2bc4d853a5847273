/**
 * Serves an App on a real socket of 127.0.0.1 and sends requests with node:http, which
 * neither decompresses nor normalises what it is given.
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../src/index.js';

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
