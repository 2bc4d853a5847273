/**
 * Streams one uploaded file to a temporary file and hands it back as a Web `File` backed by
 * that file: the upload is never held in memory, whatever its size.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { KError } from '../../errors/index.js';

/** The 413 of a file over its field's `maxBytes`. */
export function fileTooLarge(field: string, maxBytes: number): KError {
  return new KError({
    code: 'PAYLOAD_TOO_LARGE',
    statusCode: 413,
    message: `The file in "${field}" is larger than ${maxBytes} bytes.`,
  });
}

/**
 * Writes `part` to a fresh temporary file, listing its path in `uploads` before the first byte
 * so the request's cleanup finds it whatever happens next; a write that fails removes it at once.
 */
export async function saveToTemp(
  part: MultipartFile,
  maxBytes: number,
  uploads: string[],
): Promise<File> {
  const path = join(tmpdir(), `keelson-upload-${randomUUID()}`);
  uploads.push(path);
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(fileTooLarge(part.fieldname, maxBytes));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, limit, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    if (part.file.truncated) throw fileTooLarge(part.fieldname, maxBytes);
  } catch (err) {
    await unlink(path).catch(() => {});
    throw err;
  }
  const blob = await openAsBlob(path, { type: part.mimetype });
  return new File([blob], part.filename, { type: part.mimetype });
}
