import sonicBoom from 'sonic-boom';
import type { LogWriter } from './writer.js';

/** How the shared stdout destination buffers and retries; every default in one place. */
export const stdoutDefaults = {
  /** Bytes buffered before they are written to fd 1 (sonic-boom requires < 16 KiB). */
  minLength: 8192,
  /** The longest an entry waits in the buffer, in milliseconds. */
  flushIntervalMs: 100,
  /** How long `flush()` waits before trying again while stdout is full, in milliseconds. */
  retryMs: 10,
  /** How long a synchronous flush waits for a reader that takes nothing, in milliseconds. */
  stallLimitMs: 10_000,
} as const;

// sonic-boom is CommonJS: its class is the module itself, and also its SonicBoom property.
const { SonicBoom } = sonicBoom;

// sonic-boom sleeps this long between two synchronous attempts on a full pipe.
const SONIC_BOOM_RETRY_SLEEP_MS = 100;

/**
 * Buffered, non-blocking stdout. Entries collect in a sonic-boom buffer that is written to
 * fd 1 when it holds minLength bytes and at least every flushIntervalMs. When the pipe is full
 * (EAGAIN) the entries stay buffered and only the periodic flush tries again, so a request
 * never waits on a slow reader; only flushSync() (and so process exit) waits for the reader.
 *
 * The writes themselves are synchronous (`sync: true`): an asynchronous write still in flight
 * when the process exits can be overtaken by the final synchronous flush, or cut short, which
 * would reorder or lose entries. Synchronous writes of a few KiB on a non-blocking descriptor
 * cost microseconds and keep every entry, in order.
 */
class StdoutDestination implements LogWriter {
  readonly #sonic: InstanceType<typeof SonicBoom> & Tunable;
  #waiting = false;
  #stalls = 0;
  #bytesLeft = Number.POSITIVE_INFINITY;
  #closed = false;

  constructor() {
    // Opening process.stdout switches a pipe on fd 1 to non-blocking mode (Node does this for
    // any program that touches process.stdout), so a full pipe answers EAGAIN instead of
    // blocking the event loop.
    const fd = process.stdout.fd ?? 1;
    this.#sonic = new SonicBoom({
      fd,
      sync: true,
      minLength: stdoutDefaults.minLength,
      periodicFlush: stdoutDefaults.flushIntervalMs,
      retryEAGAIN: (_error, writing, remaining) => this.#retryWhenFull(writing + remaining),
    }) as InstanceType<typeof SonicBoom> & Tunable;
    this.#sonic.on('error', (error: NodeJS.ErrnoException) => this.#onError(error));
    this.#sonic.on('write', () => this.#resume());
  }

  /** Buffers one entry. */
  write(chunk: string): void {
    if (!this.#closed) this.#sonic.write(chunk);
  }

  /** Resolves once everything buffered has been written to fd 1. */
  flush(): Promise<void> {
    return new Promise((resolve, reject) => {
      const attempt = (): void => {
        if (this.#closed) {
          resolve();
          return;
        }
        this.#sonic.flush((error) => {
          if (!error || this.#closed) resolve();
          else if (isFull(error)) setTimeout(attempt, stdoutDefaults.retryMs);
          else reject(error);
        });
      };
      attempt();
    });
  }

  /** Writes everything buffered now, waiting for the reader while the pipe is full. */
  flushSync(): void {
    if (this.#closed) return;
    this.#waiting = true;
    this.#stalls = 0;
    this.#bytesLeft = Number.POSITIVE_INFINITY;
    try {
      this.#sonic.flushSync();
      this.#resume();
    } finally {
      this.#waiting = false;
    }
  }

  // Asked by sonic-boom on EAGAIN. Outside flushSync: no, keep the entries for a later attempt.
  // Inside: yes (sonic-boom sleeps, then tries again) as long as the reader takes something at
  // least every stallLimitMs; a reader that stopped for good must not keep the process alive.
  #retryWhenFull(bytesLeft: number): boolean {
    if (!this.#waiting) return false;
    if (bytesLeft < this.#bytesLeft) {
      this.#bytesLeft = bytesLeft;
      this.#stalls = 0;
    }
    this.#stalls++;
    return this.#stalls * SONIC_BOOM_RETRY_SLEEP_MS <= stdoutDefaults.stallLimitMs;
  }

  #onError(error: NodeJS.ErrnoException): void {
    if (this.#closed) return;
    if (isGone(error)) {
      // The reader is gone or fd 1 is closed: no entry can ever be delivered.
      this.#closed = true;
      this.#sonic.destroy();
      return;
    }
    // A full pipe (or disk): the entries stay buffered. Until a write succeeds, leave the
    // retrying to the periodic flush, or every entry would pay for a failing write.
    this.#sonic.minLength = Number.POSITIVE_INFINITY;
  }

  #resume(): void {
    this.#sonic.minLength = stdoutDefaults.minLength;
  }
}

// sonic-boom reads its minLength option from this property on every write; its types omit it.
interface Tunable {
  minLength: number;
}

function isGone(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'EBADF';
}

function isFull(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EAGAIN' || error.code === 'EBUSY';
}

let shared: StdoutDestination | undefined;

/**
 * The process-wide stdout writer, created on first use and shared by every Logger so that
 * entries keep their order. It is flushed synchronously when the process exits, including
 * after an uncaught exception.
 */
export function stdoutDestination(): LogWriter {
  if (shared === undefined) {
    const destination = new StdoutDestination();
    process.on('exit', () => flushQuietly(destination));
    shared = destination;
  }
  return shared;
}

/** Flushes the shared stdout writer, if there is one, ignoring failures: used on the way out. */
export function flushStdoutQuietly(): void {
  if (shared !== undefined) flushQuietly(shared);
}

function flushQuietly(destination: StdoutDestination): void {
  try {
    destination.flushSync();
  } catch {
    // Nothing is left to report to: stdout is what failed.
  }
}
