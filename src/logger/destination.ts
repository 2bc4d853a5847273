import sonicBoom from 'sonic-boom';
import type { LogWriter } from './writer.js';

/** How the shared stdout destination buffers and retries; every default in one place. */
export const stdoutDefaults = {
  /** Characters (about bytes) collected before they are written to fd 1. */
  minLength: 8192,
  /** The longest an entry waits in the buffer, and the pause between retries of a full pipe. */
  flushIntervalMs: 100,
  /** How long to wait before trying a full pipe (EAGAIN) again, in milliseconds. */
  retryMs: 10,
  /** How long a synchronous flush waits for a reader that takes nothing, in milliseconds. */
  stallLimitMs: 10_000,
} as const;

// sonic-boom is CommonJS: its class is the module itself, and also its SonicBoom property.
const { SonicBoom } = sonicBoom;

// sonic-boom sleeps this long between two synchronous attempts on a full pipe.
const SONIC_BOOM_RETRY_SLEEP_MS = 100;

/**
 * Buffered, non-blocking stdout (or any descriptor: tests use a FIFO). Entries collect in a
 * string that is handed to a sonic-boom on the descriptor when it holds minLength characters and
 * at least every flushIntervalMs. When the pipe is full (EAGAIN), sonic-boom keeps what it could
 * not write, entries collect here, and the timer tries again: a request never waits on a slow
 * reader. Only flushSync(), and so the process exit, waits for the reader.
 *
 * sonic-boom's own minLength buffer is not used: it measures its whole pending chunk again on
 * every write (Buffer.byteLength), which costs more than building the line. Its writes are
 * synchronous (`sync: true`): an asynchronous write still in flight when the process exits can
 * be overtaken by the final synchronous flush, or cut short, which would reorder or lose entries.
 * Writing 8 KiB on a non-blocking descriptor costs microseconds.
 */
export class FdDestination implements LogWriter {
  readonly #sonic: InstanceType<typeof SonicBoom>;
  #pending = '';
  #timer: NodeJS.Timeout | undefined;
  #full = false;
  #closed = false;
  #waiting = false;
  #stalls = 0;
  #giveUpAt = Number.POSITIVE_INFINITY;
  #bytesLeft = Number.POSITIVE_INFINITY;
  readonly #stallLimitMs: number;

  /**
   * Writes to `fd`, which should be non-blocking: a full pipe must answer EAGAIN. `stallLimitMs`
   * replaces the default of `stdoutDefaults` (tests shorten it).
   */
  constructor(fd: number, options: { readonly stallLimitMs?: number } = {}) {
    this.#stallLimitMs = options.stallLimitMs ?? stdoutDefaults.stallLimitMs;
    this.#sonic = new SonicBoom({
      fd,
      sync: true,
      retryEAGAIN: (_error, writing, remaining) => this.#retryWhenFull(writing + remaining),
    });
    this.#sonic.on('error', (error: NodeJS.ErrnoException) => this.#onError(error));
    this.#sonic.on('write', () => {
      this.#full = false;
    });
  }

  /** Buffers one entry. */
  write(chunk: string): void {
    if (this.#closed) return;
    this.#pending += chunk;
    if (this.#pending.length >= stdoutDefaults.minLength && !this.#full) this.#drain();
    this.#arm();
  }

  /** Calls back once everything buffered has been written to fd 1 (sonic-boom's contract). */
  flush(callback: (error?: Error | null) => void): void {
    const attempt = (): void => {
      if (this.#closed) {
        callback();
        return;
      }
      this.#drain();
      this.#sonic.flush((error) => {
        if (!error || this.#closed) callback();
        else if (isGone(error)) callback(error);
        else setTimeout(attempt, stdoutDefaults.retryMs);
      });
    };
    attempt();
  }

  /**
   * Writes everything buffered before returning, waiting for the reader while the pipe is
   * full. Gives up, dropping what is left and throwing, when the reader takes nothing for
   * stallLimitMs, or when `timeoutMs` has passed (a slow reader must not hold the exit).
   */
  flushSync(timeoutMs?: number): void {
    if (this.#closed) return;
    this.#waiting = true;
    this.#stalls = 0;
    this.#giveUpAt = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    this.#bytesLeft = Number.POSITIVE_INFINITY;
    try {
      this.#drain();
      if (!this.#closed) this.#sonic.flushSync();
      this.#full = false;
    } catch (error) {
      this.#close();
      throw error;
    } finally {
      this.#waiting = false;
    }
  }

  #drain(): void {
    const chunk = this.#pending;
    this.#pending = '';
    if (chunk.length > 0 && !this.#closed) this.#sonic.write(chunk);
  }

  // One timer at a time, and none while idle: entries wait at most flushIntervalMs, and a
  // full pipe is tried again every retryMs.
  #arm(): void {
    if (this.#timer !== undefined) return;
    const delay = this.#full ? stdoutDefaults.retryMs : stdoutDefaults.flushIntervalMs;
    this.#timer = setTimeout(this.#tick, delay);
    this.#timer.unref();
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    if (this.#closed) return;
    // First what sonic-boom kept from a full pipe, then what collected here since.
    if (this.#full) this.#sonic.flush();
    if (!this.#full) this.#drain();
    if (this.#full) this.#arm();
  };

  // Asked by sonic-boom on EAGAIN. Outside flushSync: no, keep the entries for the timer.
  // Inside: yes (sonic-boom sleeps, then tries again) as long as the reader takes something at
  // least every stallLimitMs; a reader that stopped for good must not keep the process alive.
  #retryWhenFull(bytesLeft: number): boolean {
    if (!this.#waiting || Date.now() >= this.#giveUpAt) return false;
    if (bytesLeft < this.#bytesLeft) {
      this.#bytesLeft = bytesLeft;
      this.#stalls = 0;
    }
    this.#stalls++;
    return this.#stalls * SONIC_BOOM_RETRY_SLEEP_MS <= this.#stallLimitMs;
  }

  #onError(error: NodeJS.ErrnoException): void {
    if (this.#closed) return;
    if (isGone(error)) {
      this.#close();
      return;
    }
    // A full pipe (or disk): sonic-boom keeps what it could not write; the timer retries.
    this.#full = true;
    this.#arm();
  }

  // The reader is gone, fd 1 is closed, or the reader stalled a synchronous flush: no entry
  // can be delivered any more, so stop collecting them.
  #close(): void {
    this.#closed = true;
    this.#pending = '';
    clearTimeout(this.#timer);
    this.#sonic.destroy();
  }
}

function isGone(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'EBADF';
}

let shared: FdDestination | undefined;

/**
 * The process-wide stdout writer, created on first use and shared by every Logger so that
 * entries keep their order. It is flushed synchronously when the process exits, including
 * after an uncaught exception.
 */
export function stdoutDestination(): LogWriter {
  if (shared === undefined) {
    // Opening process.stdout switches a pipe on fd 1 to non-blocking mode (Node does this for
    // any program that touches process.stdout), so a full pipe answers EAGAIN instead of
    // blocking the event loop.
    const destination = new FdDestination(process.stdout.fd ?? 1);
    process.on('exit', () => flushQuietly(destination));
    shared = destination;
  }
  return shared;
}

/** Flushes the shared stdout writer, if there is one, ignoring failures: used on the way out. */
export function flushStdoutQuietly(): void {
  if (shared !== undefined) flushQuietly(shared);
}

function flushQuietly(destination: FdDestination): void {
  try {
    destination.flushSync();
  } catch {
    // Nothing is left to report to: stdout is what failed.
  }
}
