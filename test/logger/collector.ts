import type { LogWriter } from '../../src/logger/index.js';

/** A LogWriter that keeps every chunk it is given, for tests. */
export interface Collector extends LogWriter {
  readonly chunks: string[];
}

/** A new, empty Collector. */
export function collector(): Collector {
  const chunks: string[] = [];
  return {
    chunks,
    write(chunk: string): void {
      chunks.push(chunk);
    },
  };
}
