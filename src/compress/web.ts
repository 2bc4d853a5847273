/**
 * Response compression for an engine without @fastify/compress (the Bun engine), with its rules:
 * an encoding negotiated from `Accept-Encoding` (`*` and `x-gzip` read as gzip), no compression
 * for `x-no-compression`, partial content, a type that does not compress or an answer already
 * encoded; a buffered body under `threshold` sent as it is; `Vary: accept-encoding` on every
 * compressed answer.
 * @module
 */
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import {
  brotliCompressSync,
  createBrotliCompress,
  createDeflate,
  createGzip,
  deflateSync,
  gzipSync,
} from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { CompressedReply, Compressor } from '../engine/bun/compressor.js';
import { type CompressOptions, compressSettings } from './index.js';

type Encoding = 'br' | 'gzip' | 'deflate';

function setVary(reply: CompressedReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const values = [current].flat();
  if (!values.some((v) => v.toLowerCase().includes('accept-encoding'))) {
    reply.header('vary', [...values, 'accept-encoding'].join(', '));
  }
}

/** The media types mime-db knows, by name: loaded only when compression is on. */
type MimeDb = Readonly<Record<string, { readonly compressible?: boolean }>>;

function compressible(type: string, matches: (type: string) => boolean, db: MimeDb): boolean {
  if (matches(type)) return true;
  return db[type.split(';', 1)[0]!.trim().toLowerCase()]?.compressible === true;
}

/** The compressor of the `compress` option; undefined when it is off. @throws TypeError on a bad option */
export function webCompressor(
  option: boolean | CompressOptions | undefined,
): Compressor | undefined {
  const settings = compressSettings(option);
  if (!settings) return undefined;
  const { threshold, encodings, brotliOptions = {}, zlibOptions = {}, matches } = settings;
  const db = createRequire(import.meta.url)('mime-db') as MimeDb;
  const negotiator = new Negotiator<Encoding | 'identity'>({
    supportedValues: (['br', 'gzip', 'deflate', 'identity'] as const)
      .filter((e) => e === 'identity' || encodings.includes(e))
      .sort((a, b) => encodings.indexOf(a as Encoding) - encodings.indexOf(b as Encoding)),
  });
  const sync = {
    br: (b: Buffer) => brotliCompressSync(b, brotliOptions),
    gzip: (b: Buffer) => gzipSync(b, zlibOptions),
    deflate: (b: Buffer) => deflateSync(b, zlibOptions),
  };
  const streams = {
    br: () => createBrotliCompress(brotliOptions),
    gzip: () => createGzip(zlibOptions),
    deflate: () => createDeflate(zlibOptions),
  };
  return {
    compress(accept, reply, body) {
      const current = reply.getHeader('content-encoding');
      if (current !== undefined && current !== 'identity') return body;
      if (accept.refused || reply.statusCode === 206) return body;
      if (reply.getHeader('content-range') !== undefined) return body;
      const type = reply.getHeader('content-type');
      if (!compressible(typeof type === 'string' ? type : 'application/json', matches, db)) {
        return body;
      }
      if (accept.encoding === undefined) return body;
      const header = accept.encoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
      const encoding = negotiator.negotiate(header);
      if (encoding === null || encoding === 'identity') return body;
      if (typeof body === 'string' || body instanceof Uint8Array) {
        const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
        if (bytes.byteLength < threshold) return body;
        const out = sync[encoding](bytes);
        setVary(reply);
        reply.header('content-encoding', encoding);
        reply.header('content-length', out.byteLength);
        return out;
      }
      setVary(reply);
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      return (body as Readable).pipe(streams[encoding]()) as unknown as Readable;
    },
  };
}
