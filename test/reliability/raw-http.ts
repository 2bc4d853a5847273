/**
 * A client that writes exact bytes to a socket and reads back whatever comes, for requests
 * a well-behaved client library would refuse to send.
 * @module
 */
import * as net from 'node:net';

/** What came back on one connection. */
export interface RawResponse {
  /** The status of the first response, or 0 when no response came. */
  status: number;
  /** Header names in lower case, of the first response. */
  headers: Record<string, string>;
  /** The body of the first response, as far as Content-Length says (or all that came). */
  body: string;
  /** How many bytes came back in all. */
  bytes: number;
  /** The error that ended the connection, if any (ECONNRESET after a response is common). */
  error?: string;
}

/** Sends `request` on a fresh connection to 127.0.0.1:`port` and reads until the server closes. */
export function rawRequest(port: number, request: Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      error = 'client timeout';
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks), error));
    });
    socket.write(request, () => socket.end());
  });
}

/** Parses the first HTTP/1.1 response in `data`. */
export function parseResponse(data: Buffer, error?: string): RawResponse {
  const out: RawResponse = { status: 0, headers: {}, body: '', bytes: data.length };
  if (error !== undefined) out.error = error;
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return out;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) return out;
  out.status = Number(m[1]);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) out.headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  const length = Number(out.headers['content-length']);
  out.body = (Number.isInteger(length) ? rest.subarray(0, length) : rest).toString('utf8');
  return out;
}

/** One request as parts; `toBytes` lays it out as HTTP/1.1. */
export interface RequestParts {
  method: string;
  /** The request target, written byte for byte (latin1), so it may hold anything. */
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** The bytes of `parts` on the wire: Host, Connection: close and Content-Length added. */
export function toBytes(parts: RequestParts): Buffer {
  const body = parts.body ?? Buffer.alloc(0);
  let head = `${parts.method} ${parts.url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
  for (const [k, v] of Object.entries(parts.headers ?? {})) head += `${k}: ${v}\r\n`;
  if (body.length > 0 || parts.method === 'POST' || parts.method === 'PUT')
    head += `Content-Length: ${body.length}\r\n`;
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]);
}
