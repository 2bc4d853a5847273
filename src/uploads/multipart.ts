/**
 * `multipart({...})`: the form schema with its body reader, so routing reads an upload through
 * the `BODY_READER` extension point without knowing uploads.
 * @module
 */
import type { FastifyRequest } from 'fastify';
import { BODY_READER, type BodyReader } from '../routing/body-reader.js';
import { collectorFor } from './collect.js';
import { mountUploadRoute } from './mount.js';
import { formSchema, type MultipartSchema, type MultipartShape } from './schema.js';

/**
 * The body schema of an upload route: `multipart/form-data` with file fields (`file()`) and
 * text fields validated by their schemas. Files are streamed to temporary files, never held in
 * memory, and removed once the response has been sent.
 * @example post('/avatar', { body: multipart({ avatar: file({ types: ['image/png'] }), note: z.string() }) }, …)
 */
export function multipart<const S extends MultipartShape>(shape: S): MultipartSchema<S> {
  const schema = formSchema(shape);
  let collect: ((request: FastifyRequest) => Promise<void>) | undefined;
  const reader: BodyReader = {
    // The limits are worked out once, when the first upload arrives.
    read: (request) => {
      collect ??= collectorFor(schema);
      return collect(request);
    },
    mount: (fastify, mount) => mountUploadRoute(fastify, schema, mount),
  };
  return Object.freeze({ ...schema, [BODY_READER]: reader });
}
