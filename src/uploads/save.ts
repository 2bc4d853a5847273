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
import { type KError, keelsonError } from '../errors/index.js';

/** The 413 of a file over its field's `maxBytes`. */
export function fileTooLarge(field: string, maxBytes: number): KError {
  return keelsonError(
    'PAYLOAD_TOO_LARGE',
    `The file in "${field}" is larger than ${maxBytes} bytes.`,
  );
}

/**
 * The answer when a temporary file cannot be written (the directory is missing, read-only or
 * full): the server's fault, never the client's. 507 when the disk is full, else 500; the
 * cause goes to the request's log entry.
 */
export function storageFailed(cause: unknown): KError {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  return full
    ? keelsonError('INSUFFICIENT_STORAGE', 'There is no room left to store the upload.', { cause })
    : keelsonError('UPLOAD_NOT_STORED', 'The upload could not be stored.', { cause });
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
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  // A failure of the disk (a system call's error), told apart from a broken form or a file
  // over its limit, which the pipeline also passes on to this stream.
  let diskError: unknown;
  out.on('error', (err: NodeJS.ErrnoException) => {
    if (typeof err.syscall === 'string') diskError ??= err;
  });
  try {
    await pipeline(part.file, limit, out);
    if (part.file.truncated) throw fileTooLarge(part.fieldname, maxBytes);
    const blob = await openAsBlob(path, { type: part.mimetype }).catch((err: unknown) => {
      diskError = err;
      throw err;
    });
    return new File([blob], part.filename, { type: part.mimetype });
  } catch (err) {
    await unlink(path).catch(() => {});
    throw diskError === undefined ? err : storageFailed(diskError);
  }
}
