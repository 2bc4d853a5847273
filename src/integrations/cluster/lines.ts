import type { Readable } from 'node:stream';

/**
 * Reads `stream` and hands `write` whole lines only (with their newline), so the output of
 * several workers never mixes mid-line. Resolves when the stream ends; a last line without a
 * newline is given one.
 */
export function forwardLines(
  stream: Readable | null,
  write: (lines: string) => void,
): Promise<void> {
  if (!stream) return Promise.resolve();
  stream.setEncoding('utf8');
  let partial = '';
  stream.on('data', (chunk: string) => {
    const end = chunk.lastIndexOf('\n');
    if (end === -1) {
      partial += chunk;
      return;
    }
    write(partial + chunk.slice(0, end + 1));
    partial = chunk.slice(end + 1);
  });
  return new Promise((resolve) => {
    const finish = () => {
      if (partial) write(`${partial}\n`);
      partial = '';
      resolve();
    };
    stream.once('end', finish);
    stream.once('error', finish);
  });
}
