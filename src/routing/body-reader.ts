/**
 * Bodies a route reads itself. A body schema that carries a `BodyReader` under `BODY_READER`
 * (`multipart()` does) is not decoded by the engine's parsers: the route is mounted by the
 * reader, in an engine context of its own, and the reader reads the body once the route's
 * middleware has let the request through. The extension point through which routing runs a
 * feature's body without importing it.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The key of a schema's body reader (`Symbol.for`, so two copies of Keelson agree on it). */
export const BODY_READER: unique symbol = Symbol.for('keelson.bodyReader') as never;

/** How a route reads a body that is not JSON. */
export interface BodyReader {
  /** Reads the body into `request.body`; runs after the route's middleware. */
  read(request: FastifyRequest): Promise<void>;
  /** Registers the route, which `mount` adds to the context it is given, with what reading needs. */
  mount(fastify: FastifyInstance, mount: (context: FastifyInstance) => void): void;
}

/** The reader a body schema carries, or undefined for a body the engine decodes. */
export function bodyReaderOf(body: unknown): BodyReader | undefined {
  if (typeof body !== 'object' || body === null || !(BODY_READER in body)) return undefined;
  return (body as { [BODY_READER]: BodyReader })[BODY_READER];
}
