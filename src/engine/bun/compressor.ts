/**
 * What the Bun engine asks of response compression: the compress feature implements it
 * (src/compress/web.ts) and the App hands it to the engine, so the engine loads no feature.
 * @module
 */
import type { Readable } from 'node:stream';

/** What a compressor reads and sets of a reply. */
export interface CompressedReply {
  readonly statusCode: number;
  getHeader(name: string): string | string[] | undefined;
  header(name: string, value: string | number): unknown;
  removeHeader(name: string): unknown;
}

/** Compresses an answer's body as the `compress` option asks, setting its headers. */
export interface Compressor {
  /**
   * The body to send: compressed when the request accepts an encoding and the answer
   * qualifies (its type, its size), else `body` itself.
   */
  compress(
    accept: { readonly encoding: string | undefined; readonly refused: boolean },
    reply: CompressedReply,
    body: string | Uint8Array | Readable,
  ): string | Uint8Array | Readable;
}
