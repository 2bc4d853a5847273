/**
 * A client for upload tests on a real socket: builds multipart bodies and sends them byte for
 * byte, timing when the answer starts and noting how much of the body the server took.
 * @module
 */
import { connect } from 'node:net';
import { parseResponse, type RawResponse } from '../reliability/raw-http.js';

/** One part of a form: a text field, or a file with its bytes and media type. */
export type FormPart = [name: string, value: string] | [name: string, bytes: Buffer, type: string];

/** The boundary of every form `formBody` builds. */
export const BOUNDARY = 'keelsonuploadclient';

/** The Content-Type of a form `formBody` builds. */
export const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart/form-data body of `parts`. */
export function formBody(parts: readonly FormPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value, type] of parts) {
    const head =
      type === undefined
        ? `Content-Disposition: form-data; name="${name}"`
        : `Content-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: ${type}`;
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\n${head}\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** What came back, and when. */
export interface TimedResponse extends RawResponse {
  /** Milliseconds from the first byte sent to the first byte of the answer; -1 when none came. */
  answeredMs: number;
  /** Bytes of the body written before the answer started. */
  bodySentBeforeAnswer: number;
}

/** How `sendUpload` sends. */
export interface UploadOptions {
  headers?: Record<string, string>;
  /** Bytes per write; the body is written with backpressure. @default 64 KiB */
  chunk?: number;
  /** Stops writing (and destroys the socket) after this many body bytes: a client that aborts. */
  abortAfter?: number;
  /** Gives up after this long. @default 10 s */
  timeoutMs?: number;
  /**
   * Sends this many bytes of the body, then waits for the answer (at most `holdMs`) before
   * sending the rest: an answer that comes meanwhile did not wait for the body.
   */
  holdAfter?: number;
  /** @default 1000 */
  holdMs?: number;
}

/**
 * POSTs `body` to `path` on a fresh connection (`Connection: keep-alive`, so only the server's
 * choice closes it), and reads until the server closes the connection or the timeout passes.
 */
export function sendUpload(
  port: number,
  path: string,
  body: Buffer,
  {
    headers = {},
    chunk = 64 * 1024,
    abortAfter,
    timeoutMs = 10_000,
    holdAfter,
    holdMs = 1000,
  }: UploadOptions = {},
): Promise<TimedResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let started = 0;
    let answeredMs = -1;
    let sent = 0;
    let sentBeforeAnswer = -1;
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      error = 'client timeout';
      socket.destroy();
    }, timeoutMs);
    let release: (() => void) | undefined;
    socket.on('data', (d: Buffer) => {
      if (answeredMs === -1) {
        answeredMs = performance.now() - started;
        sentBeforeAnswer = sent;
        release?.();
      }
      chunks.push(d);
      endWhenDone();
    });
    // A whole answer, the whole body sent, on a connection the server keeps open: done.
    const endWhenDone = () => {
      if (sent < body.length) return;
      const got = parseResponse(Buffer.concat(chunks));
      const length = Number(got.headers['content-length'] ?? Number.NaN);
      if (got.status && Buffer.byteLength(got.body) >= length) socket.end();
    };
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const res = parseResponse(Buffer.concat(chunks), error);
      resolve({ ...res, answeredMs, bodySentBeforeAnswer: sentBeforeAnswer });
    });
    let head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    socket.once('connect', () => {
      started = performance.now();
      socket.write(`${head}\r\n`);
      const pump = () => {
        while (sent < body.length && !socket.destroyed) {
          if (abortAfter !== undefined && sent >= abortAfter) {
            socket.destroy();
            return;
          }
          if (holdAfter !== undefined && sent >= holdAfter && answeredMs === -1 && !release) {
            const held = setTimeout(() => release?.(), holdMs);
            release = () => {
              clearTimeout(held);
              pump();
            };
            return;
          }
          const limit = Math.min(
            abortAfter ?? Number.POSITIVE_INFINITY,
            holdAfter !== undefined && sent < holdAfter ? holdAfter : Number.POSITIVE_INFINITY,
          );
          const end = Math.min(body.length, sent + chunk, limit);
          const ok = socket.write(body.subarray(sent, end));
          sent = end;
          if (!ok) return void socket.once('drain', pump);
        }
        endWhenDone();
      };
      pump();
    });
  });
}
