/**
 * Uploads: `multipart({...})` bodies with `file({...})` fields, on @fastify/multipart.
 * @module
 */
export { mountUploadRoute } from './mount.js';
export { multipart } from './multipart.js';
export {
  type CollectedForm,
  type FileField,
  type FileOptions,
  file,
  MULTIPART_TYPE,
  type MultipartOutput,
  type MultipartSchema,
  type MultipartShape,
  multipartOf,
} from './schema.js';
