/**
 * Request bodies: JSON that may be empty, `Content-Encoding` decoded, media types refused.
 * @module
 */
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type KError, keelsonError } from '../errors/index.js';

/**
 * Replaces the engine's JSON parser with one that reads an empty body as no body: many clients
 * send `Content-Type: application/json` on every request. A route with a body schema then
 * answers 422 naming `body`; one without never looks. Prototype poisoning is still refused.
 */
export function installJsonParser(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    function parseJson(request, body, done) {
      if (body.length === 0) done(null, undefined);
      else parse(request, body as string, done);
    },
  );
}

const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** 415 `UNSUPPORTED_MEDIA_TYPE`, saying what was sent and what is accepted. */
export function unsupportedMediaType(message: string): KError {
  return keelsonError('UNSUPPORTED_MEDIA_TYPE', message);
}

/**
 * A route's `preParsing` hook: a body sent with `Content-Encoding` gzip, deflate or br (or a list
 * of them) is decoded before it is parsed, with the body limit applied to the decoded bytes;
 * any other encoding is a 415. A body that does not decode is a 400.
 */
export function decodeBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Readable,
  done: (err: Error | null, body?: Readable) => void,
): void {
  const header = request.headers['content-encoding'];
  if (header === undefined) {
    done(null, payload);
    return;
  }
  const codings = contentCodings(header);
  if (codings.length === 0) {
    done(null, payload);
    return;
  }
  const makers = codings.map((c) => (Object.hasOwn(DECODERS, c) ? DECODERS[c] : undefined));
  const unknown = codings.find((_, i) => makers[i] === undefined);
  if (unknown !== undefined) {
    const detail = `Content-Encoding ${JSON.stringify(unknown)} is not supported: send gzip, deflate, br or identity.`;
    done(unsupportedMediaType(detail));
    return;
  }
  let received = 0;
  payload.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  let stream: NodeJS.ReadableStream = payload;
  // Codings are listed in the order they were applied: undo the last one first.
  for (let i = makers.length - 1; i >= 0; i--) {
    const decoder = makers[i]!();
    const coding = codings[i]!;
    decoder.once('error', (err: Error & { statusCode?: number }) => {
      // An error passed on from the layer below already names the coding that failed.
      if (err.statusCode !== undefined) return;
      err.statusCode = 400;
      err.message = `The request body is not valid ${coding} data.`;
    });
    const from = stream;
    from.once('error', (err: Error) => (decoder as unknown as Readable).destroy(err));
    stream = from.pipe(decoder);
  }
  Object.defineProperty(stream, 'receivedEncodedLength', { get: () => received });
  done(null, stream as Readable);
}

/** The codings a `Content-Encoding` header lists, in lower case, `identity` left out. */
export function contentCodings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
}

/** True for a JSON media type: `application/json` or any `…+json`, parameters ignored. */
export function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}
