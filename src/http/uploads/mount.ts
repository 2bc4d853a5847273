/**
 * Mounts an upload route in its own encapsulated engine context: the multipart parser, its
 * temporary-file cleanup and the collector apply to that route only, so other routes pay nothing
 * and keep answering 415 to a multipart body.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { collectorFor } from './collect.js';
import type { MultipartSchema } from './schema.js';

/** Registers `mount` (which adds the route) inside a context with the multipart parser. */
export function mountUploadRoute(
  fastify: FastifyInstance,
  schema: MultipartSchema,
  mount: (context: FastifyInstance) => void,
): void {
  const collect = collectorFor(schema);
  fastify.register(async function keelsonUploads(context) {
    // Loaded on first use: an app without upload routes does not pay its import at startup.
    const { default: multipartPlugin } = await import('@fastify/multipart');
    await context.register(multipartPlugin);
    context.addHook('preValidation', collect);
    mount(context);
  });
}
