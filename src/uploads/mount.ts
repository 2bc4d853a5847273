/**
 * Mounts an upload route in its own encapsulated engine context: the multipart parser and its
 * temporary-file cleanup apply to that route only, so other routes pay nothing and keep
 * answering 415 to a multipart body. In that context no parser reads a body: the route reads
 * the form itself once its middleware has let the request through, and refuses any other body
 * with a 415 without receiving it.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartSchema } from './schema.js';

/** Registers `mount` (which adds the route) inside a context with the multipart parser. */
export function mountUploadRoute(
  fastify: FastifyInstance,
  _schema: MultipartSchema,
  mount: (context: FastifyInstance) => void,
): void {
  fastify.register(async function keelsonUploads(context) {
    context.removeAllContentTypeParsers();
    context.addContentTypeParser('*', leaveUnread);
    // Loaded on first use: an app without upload routes does not pay its import at startup.
    const { default: multipartPlugin } = await import('@fastify/multipart');
    await context.register(multipartPlugin);
    mount(context);
  });
}

// The body stays on the wire: the route answers 415 and the connection closes.
function leaveUnread(_request: FastifyRequest, _payload: unknown, done: (err: null) => void) {
  done(null);
}
