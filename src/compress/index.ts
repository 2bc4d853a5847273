/**
 * Response compression on @fastify/compress (`compress` in AppOptions). Off by default: most
 * deployments compress at the proxy in front, and compressing costs CPU on every response.
 * @module
 */

import type { BrotliOptions, ZlibOptions } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { EnginePlugin } from '../engine/plugin.js';

/** How the App compresses responses. */
export interface CompressOptions {
  /** Bodies smaller than this many bytes go out as they are. @default 1024 */
  threshold?: number;
  /** Encodings offered, preferred first; the client's `Accept-Encoding` picks. @default ['br', 'gzip', 'deflate'] */
  encodings?: ('br' | 'gzip' | 'deflate')[];
  /** Brotli parameters. @default quality 4 (11 costs far more CPU for little gain) */
  brotliOptions?: BrotliOptions;
  /** gzip/deflate parameters. @default zlib's */
  zlibOptions?: ZlibOptions;
  /**
   * Content types to compress, besides those the mime-db marks compressible. Event streams
   * never are, whatever this says.
   * @default text/* (but text/event-stream), JSON, XML, `+json`/`+xml`, octet-stream
   */
  customTypes?: RegExp | ((contentType: string) => boolean);
}

const EVENT_STREAM = /^\s*text\/event-stream/i;
// The plugin's own default; images, archives and video match neither it nor the mime-db.
const COMPRESSIBLE =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/;

/** The `compress` option, checked, with the type test every engine applies. */
export interface CompressSettings {
  readonly threshold: number;
  readonly encodings: readonly ('br' | 'gzip' | 'deflate')[];
  readonly brotliOptions: BrotliOptions | undefined;
  readonly zlibOptions: ZlibOptions | undefined;
  /** True for a content type to compress (never an event stream). */
  readonly matches: (contentType: string) => boolean;
}

/** The `compress` option checked; undefined when compression is off. @throws TypeError on a bad option */
export function compressSettings(
  option: boolean | CompressOptions | undefined = false,
): CompressSettings | undefined {
  if (option === false) return undefined;
  if (option !== true && (typeof option !== 'object' || option === null)) {
    throw new TypeError(`compress must be true, false or an options object, got ${typeof option}`);
  }
  const {
    threshold = 1024,
    encodings = ['br', 'gzip', 'deflate'],
    brotliOptions,
    zlibOptions,
    customTypes = COMPRESSIBLE,
  } = option === true ? {} : option;
  if (!Number.isInteger(threshold) || threshold < 0) {
    throw new TypeError(`compress.threshold must be an integer >= 0, got ${String(threshold)}`);
  }
  const custom =
    typeof customTypes === 'function' ? customTypes : (t: string) => customTypes.test(t);
  const matches = (type: string) => !EVENT_STREAM.test(type) && custom(type);
  return { threshold, encodings, brotliOptions, zlibOptions, matches };
}

/** The `compress` option of an App, normalised: undefined when compression is off. */
export function compressPlugin(
  option: boolean | CompressOptions = false,
): EnginePlugin | undefined {
  const settings = compressSettings(option);
  if (!settings) return undefined;
  const { threshold, encodings, brotliOptions, zlibOptions, matches } = settings;
  return async function registerCompression(fastify: FastifyInstance): Promise<void> {
    // Loaded on first use: compression is off by default.
    await fastify.register((await import('@fastify/compress')).default, {
      threshold,
      encodings: [...encodings],
      ...(brotliOptions ? { brotliOptions } : {}),
      ...(zlibOptions ? { zlibOptions } : {}),
      customTypes: matches,
      // Compressed request bodies are a different feature, with its own costs: left out.
      globalDecompression: false,
    });
  };
}
