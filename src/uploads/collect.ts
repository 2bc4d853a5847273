/**
 * The first step of an upload route's endpoint, once its middleware has run: reads the multipart
 * body part by part into `request.body`, files streamed to temporary files, each checked against
 * its `file()` field.
 * @module
 */
import type { FastifyRequest } from 'fastify';
import { isKError, type KeelsonErrorCode, keelsonError, unprocessable } from '../errors/index.js';
import { contentCodings, unsupportedMediaType } from '../request/body.js';
import { fileTooLarge, saveToTemp } from './save.js';
import { type CollectedForm, type FileField, isFileField, type MultipartSchema } from './schema.js';

/** What the plugin's errors become: a stable code and a message written for the client. */
const PLUGIN_ERRORS: Readonly<Record<string, readonly [KeelsonErrorCode, string]>> = {
  FST_FILES_LIMIT: ['PAYLOAD_TOO_LARGE', 'The form has more files than this route takes.'],
  FST_FIELDS_LIMIT: ['PAYLOAD_TOO_LARGE', 'The form has more fields than this route takes.'],
  FST_PARTS_LIMIT: ['PAYLOAD_TOO_LARGE', 'The form has more parts than this route takes.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [
    'UNSUPPORTED_MEDIA_TYPE',
    'This route takes multipart/form-data.',
  ],
};

/** Makes the collector of one upload route; the limits come from its schema, once. */
export function collectorFor(schema: MultipartSchema): (request: FastifyRequest) => Promise<void> {
  const files = new Map<string, FileField>();
  let textFields = 0;
  for (const [name, field] of Object.entries(schema.shape)) {
    if (isFileField(field)) files.set(name, field);
    else textFields++;
  }
  const largest = Math.max(0, ...[...files.values()].map((f) => f.maxBytes));
  // One more than the route takes, so the extra one reaches the check that names it.
  const limits = {
    fileSize: largest + 1,
    files: files.size + 1,
    fields: textFields * 4 + 4,
    parts: files.size + textFields * 4 + 5,
  };

  return async function collectUploads(request: FastifyRequest): Promise<void> {
    if (!request.isMultipart()) throw asClientError({ code: 'FST_INVALID_MULTIPART_CONTENT_TYPE' });
    // The multipart parser reads the request as it came: a compressed form would never parse.
    const coding = contentCodings(request.headers['content-encoding'])[0];
    if (coding !== undefined) {
      throw unsupportedMediaType(
        `Content-Encoding ${JSON.stringify(coding)} is not supported for multipart/form-data: send the form uncompressed.`,
      );
    }
    request.tmpUploads ??= [];
    const uploads = request.tmpUploads;
    const form: CollectedForm = {};
    try {
      for await (const part of request.parts({ limits })) {
        const name = part.fieldname;
        if (part.type === 'field') {
          const value = String(part.value);
          const had = form[name];
          form[name] =
            had === undefined ? value : [...(Array.isArray(had) ? had : [String(had)]), value];
          continue;
        }
        const field = files.get(name);
        if (!field || form[name] !== undefined) {
          part.file.resume();
          throw unprocessable('The request did not pass validation.', [
            {
              path: `body.${name}`,
              message: field ? 'Only one file is allowed' : 'Unexpected file',
            },
          ]);
        }
        if (field.types && !field.types.includes(part.mimetype.toLowerCase())) {
          part.file.resume();
          throw unsupportedMediaType(
            `The file in "${name}" is ${part.mimetype}; expected ${field.types.join(' or ')}.`,
          );
        }
        form[name] = await saveToTemp(part, field.maxBytes, uploads);
      }
    } catch (err) {
      // No handler will see these files: remove them now rather than at the response.
      await request.cleanRequestFiles();
      uploads.length = 0;
      throw asClientError(err, files);
    }
    request.body = form;
  };
}

function asClientError(err: unknown, files?: ReadonlyMap<string, FileField>): unknown {
  if (isKError(err)) return err;
  const e = err as { code?: string; part?: { fieldname?: string } };
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') {
    const name = e.part?.fieldname ?? '';
    return fileTooLarge(name, files?.get(name)?.maxBytes ?? 0);
  }
  const known = e?.code ? PLUGIN_ERRORS[e.code] : undefined;
  if (known) return keelsonError(known[0], known[1]);
  // Busboy's own complaints and a body cut short: the client sent a broken form.
  return keelsonError('MALFORMED_MULTIPART', 'The multipart body is malformed or was cut short.', {
    cause: err,
  });
}
