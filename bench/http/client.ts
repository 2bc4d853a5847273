// A one-shot HTTP client for the startup probe and the correctness check: no keep-alive, so each
// call is one fresh connection and one request-log line on the server.
import { request as httpRequest } from 'node:http';

/** What came back. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** What to send. */
export interface Ask {
  readonly method?: string;
  readonly path: string;
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Sends one request to 127.0.0.1:`port`; rejects when nothing answers. */
export function ask(
  port: number,
  { method = 'GET', path, json, headers = {} }: Ask,
): Promise<Answer> {
  const payload = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          ...headers,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
