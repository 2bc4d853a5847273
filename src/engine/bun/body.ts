/**
 * Request bodies on the Bun engine, with the Fastify engine's rules: the body limit (on the
 * decoded bytes), `Content-Encoding` gzip/deflate/br, JSON (empty reads as no body, prototype
 * poisoning refused) and text; any other media type is a 415. The errors carry Fastify's codes,
 * so the one error path answers them the same.
 * @module
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import secureJson from 'secure-json-parse';
import { contentCodings, unsupportedMediaType } from '../../request/body.js';
import type { BunRequest } from './request.js';

/** An error with Fastify's code and status, answered as the Fastify engine answers it. */
function engineError(code: string, statusCode: number, message: string): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

/** True when the request carries a body. */
export function hasBody(request: BunRequest): boolean {
  if (request.header('transfer-encoding') !== undefined) return true;
  const length = request.header('content-length');
  return length !== undefined && length !== '0';
}

/** Reads at most `limit` bytes of the body; a longer one is a 413. */
async function readBytes(request: BunRequest, limit: number): Promise<Uint8Array> {
  const length = request.header('content-length');
  if (typeof length === 'string') {
    const n = Number(length);
    if (!/^\d+$/.test(length)) {
      throw engineError(
        'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
        400,
        'Request body size did not match Content-Length',
      );
    }
    if (n > limit)
      throw engineError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large');
  }
  const stream = request.native.body;
  if (stream === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit)
      throw engineError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large');
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

const DECODERS: Readonly<Record<string, (bytes: Uint8Array, max: number) => Buffer>> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => gunzipSync(b, { maxOutputLength: max }),
  deflate: (b, max) => inflateSync(b, { maxOutputLength: max }),
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
};

function decoded(request: BunRequest, bytes: Uint8Array, limit: number): Uint8Array {
  const codings = contentCodings(request.header('content-encoding'));
  let out = bytes;
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!;
    const decode = Object.hasOwn(DECODERS, coding) ? DECODERS[coding] : undefined;
    if (decode === undefined) {
      throw unsupportedMediaType(
        `Content-Encoding ${JSON.stringify(coding)} is not supported: send gzip, deflate, br or identity.`,
      );
    }
    try {
      out = decode(out, limit);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw engineError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large');
      }
      throw engineError('Z_DATA_ERROR', 400, `The request body is not valid ${coding} data.`);
    }
  }
  return out;
}

function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
}

/**
 * Reads and parses the body into `request.body`: JSON for `application/json`, a string for
 * `text/plain`; `decode` undoes a `Content-Encoding` first. Throws the engine's 4xx errors.
 */
export async function readBody(request: BunRequest, limit: number, decode: boolean): Promise<void> {
  if (!hasBody(request)) return;
  const type = mediaTypeOf(request.header('content-type'));
  const json = type === 'application/json';
  if (!json && type !== 'text/plain') {
    throw engineError(
      'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      415,
      `Unsupported Media Type: ${String(request.header('content-type'))}`,
    );
  }
  let bytes = await readBytes(request, limit);
  if (decode) bytes = decoded(request, bytes, limit);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!json) {
    request.body = text;
    return;
  }
  if (text.length === 0) return;
  try {
    request.body = secureJson.parse(text, undefined, {
      protoAction: 'error',
      constructorAction: 'error',
    });
  } catch (err) {
    throw Object.assign(err as Error, { statusCode: 400 });
  }
}
