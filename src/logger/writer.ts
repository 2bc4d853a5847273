/** Anything with write(string): a stream, sonic-boom, or a test's collector. */
export interface LogWriter {
  /** Receives one complete entry, newline included. */
  write(chunk: string): unknown;
}

interface AsyncFlushable {
  flush(callback: (error?: Error | null) => void): unknown;
}

interface SyncFlushable {
  flushSync(timeoutMs?: number): unknown;
}

/**
 * Resolves once `writer` has passed on what it buffered: writers with `flush(callback)`, such
 * as sonic-boom, are asked to flush; any other writer already has every entry.
 */
export function flushWriter(writer: LogWriter): Promise<void> {
  if (!hasFunction<AsyncFlushable>(writer, 'flush')) return Promise.resolve();
  return new Promise((resolve, reject) => {
    writer.flush((error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Flushes `writer` synchronously when it can (it has `flushSync()`, as sonic-boom has); a
 * `timeoutMs` is passed on to writers that bound their wait (the stdout writer).
 */
export function flushWriterSync(writer: LogWriter, timeoutMs?: number): void {
  if (!hasFunction<SyncFlushable>(writer, 'flushSync')) return;
  if (timeoutMs === undefined) writer.flushSync();
  else writer.flushSync(timeoutMs);
}

function hasFunction<T>(writer: LogWriter, name: keyof T): writer is LogWriter & T {
  return typeof (writer as unknown as Record<PropertyKey, unknown>)[name] === 'function';
}
