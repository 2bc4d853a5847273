import { flushWriter, flushWriterSync, type LogWriter } from './writer.js';

/** A writer that writes to `writer`, then gives the same line to `tap`; it flushes `writer`. */
export function teeWriter(writer: LogWriter, tap: (line: string) => void): LogWriter {
  return {
    write(chunk: string): unknown {
      const result = writer.write(chunk);
      try {
        tap(chunk);
      } catch {
        // A tap is an observer: it must never stop the log.
      }
      return result;
    },
    flush(callback: (error?: Error | null) => void): void {
      flushWriter(writer).then(() => callback(), callback);
    },
    flushSync(timeoutMs?: number): void {
      flushWriterSync(writer, timeoutMs);
    },
  } as LogWriter;
}
