import { writeSync } from 'node:fs';
import type { LogWriter } from './writer.js';

/** How the shared stdout destination buffers, retries and holds writers back; every default. */
export const stdoutDefaults = {
  /** Characters (about bytes) collected before they are written to fd 1. */
  minLength: 8192,
  /** The longest an entry waits in the buffer before it is written. */
  flushIntervalMs: 100,
  /**
   * How long to wait before trying a full pipe (EAGAIN) again, in milliseconds; doubled while
   * the reader takes nothing, up to maxRetryMs, and back to this as soon as it takes something.
   */
  retryMs: 1,
  /** The longest wait between two tries of a full pipe whose reader takes nothing. */
  maxRetryMs: 64,
  /**
   * Characters waiting for a full pipe past which a write waits for the reader (back-pressure):
   * the service slows down to what the reader takes instead of piling up entries it may not be
   * able to flush at exit.
   */
  maxBacklog: 1024 * 1024,
  /**
   * The longest a write is held back; a reader that has not taken half the backlog by then is
   * left behind (entries collect again) until it catches up.
   */
  maxHoldMs: 1_000,
  /** How long a synchronous flush waits for a reader that takes nothing, in milliseconds. */
  stallLimitMs: 10_000,
} as const;

const pause = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

/**
 * Buffered, non-blocking stdout (or any descriptor: tests use a FIFO). Entries collect in a
 * string that is written to the descriptor when it holds minLength characters and at least
 * every flushIntervalMs. When the pipe is full (EAGAIN), what it refused is kept, entries
 * collect behind it, and a timer tries again after retryMs (1 ms while the reader keeps taking,
 * backing off to maxRetryMs while it takes nothing): the pipe is refilled about as fast as it
 * is read, not once per timer tick. A write that finds more than maxBacklog characters waiting
 * holds the event loop until the reader has taken half of them (back-pressure, for at most
 * maxHoldMs; a reader that cannot catch up in that time is left behind until it has). flushSync(), and so the process exit, waits
 * for the reader, polling every millisecond, up to its deadline.
 *
 * The writes are synchronous: an asynchronous write still in flight when the process exits can
 * be overtaken by the final synchronous flush, or cut short, which would reorder or lose
 * entries. Each batch is encoded once; a pipe that takes part of it keeps the rest as bytes.
 */
export class FdDestination implements LogWriter {
  readonly #fd: number;
  readonly #stallLimitMs: number;
  #pending = '';
  #out: Buffer | undefined;
  #timer: NodeJS.Timeout | undefined;
  #full = false;
  #closed = false;
  /** Bytes written so far: a change means the reader took something. */
  #written = 0;
  #retryMs: number = stdoutDefaults.retryMs;
  /** A hold ran out of time: no more holding until the reader has taken half the backlog. */
  #leftBehind = false;

  /**
   * Writes to `fd`, which should be non-blocking: a full pipe must answer EAGAIN. `stallLimitMs`
   * replaces the default of `stdoutDefaults` (tests shorten it).
   */
  constructor(fd: number, options: { readonly stallLimitMs?: number } = {}) {
    this.#fd = fd;
    this.#stallLimitMs = options.stallLimitMs ?? stdoutDefaults.stallLimitMs;
  }

  /** Characters and bytes waiting to be written. */
  get backlog(): number {
    return this.#pending.length + (this.#out?.length ?? 0);
  }

  /** Buffers one entry. */
  write(chunk: string): void {
    if (this.#closed) return;
    this.#pending += chunk;
    if (!this.#full && this.#pending.length >= stdoutDefaults.minLength) {
      this.#full = !this.#writeOut();
    }
    if (this.#full && !this.#leftBehind && this.backlog > stdoutDefaults.maxBacklog) {
      this.#holdBack();
    }
    this.#arm();
  }

  /** Calls back once everything buffered has been written, or the reader is gone. */
  flush(callback: (error?: Error | null) => void): void {
    const attempt = (): void => {
      if (this.#writeOut()) callback();
      else setTimeout(attempt, stdoutDefaults.retryMs);
    };
    attempt();
  }

  /**
   * Writes everything buffered before returning, waiting for the reader while the pipe is
   * full. Gives up, dropping what is left and throwing, when the reader takes nothing for
   * stallLimitMs, or when `timeoutMs` has passed (a slow reader must not hold the exit).
   */
  flushSync(timeoutMs?: number): void {
    const giveUpAt = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    const outcome = this.#waitFor(0, giveUpAt, this.#stallLimitMs);
    if (outcome === 'done') {
      this.#full = false;
      return;
    }
    const left = this.backlog;
    this.#close();
    throw new Error(
      outcome === 'deadline'
        ? `log flush gave up at its deadline: ${left} characters not written`
        : `log flush gave up: the reader took nothing for ${this.#stallLimitMs} ms; ${left} characters not written`,
    );
  }

  /**
   * Writes until at most `target` characters wait, polling a full pipe every millisecond.
   * 'stalled' when the reader took nothing for `stallMs`, 'deadline' at `giveUpAt`.
   */
  #waitFor(target: number, giveUpAt: number, stallMs: number): 'done' | 'stalled' | 'deadline' {
    let progressAt = Date.now();
    for (;;) {
      const before = this.#written;
      if (this.#writeOut() || this.backlog <= target) return 'done';
      const now = Date.now();
      if (this.#written !== before) progressAt = now;
      if (now >= giveUpAt) return 'deadline';
      if (now - progressAt >= stallMs) return 'stalled';
      sleepSync(1);
    }
  }

  // Back-pressure: hold the event loop until the reader has taken half of the backlog, for at
  // most maxHoldMs: a reader far slower than the service must not stop it for long.
  #holdBack(): void {
    const { maxBacklog, maxHoldMs } = stdoutDefaults;
    const outcome = this.#waitFor(maxBacklog / 2, Date.now() + maxHoldMs, maxHoldMs);
    if (outcome !== 'done') this.#leftBehind = true;
  }

  /**
   * Writes what waits until the pipe is full: true when nothing is left (or nothing can be
   * written any more: the reader is gone), false when the pipe refused the rest.
   */
  #writeOut(): boolean {
    for (;;) {
      if (this.#closed) return true;
      if (this.#out === undefined) {
        if (this.#pending.length === 0) return true;
        this.#out = Buffer.from(this.#pending, 'utf8');
        this.#pending = '';
      }
      let n: number;
      try {
        n = writeSync(this.#fd, this.#out);
      } catch (error) {
        if (isGone(error as NodeJS.ErrnoException)) {
          this.#close();
          return true;
        }
        // A full pipe (EAGAIN), or disk: keep everything and try again later.
        return false;
      }
      this.#written += n;
      this.#out = n >= this.#out.length ? undefined : this.#out.subarray(n);
      if (this.#leftBehind && this.backlog <= stdoutDefaults.maxBacklog / 2) {
        this.#leftBehind = false;
      }
    }
  }

  // One timer at a time, and none while idle: entries wait at most flushIntervalMs, and a
  // full pipe is tried again after #retryMs.
  #arm(): void {
    if (this.#timer !== undefined || this.#closed || this.backlog === 0) return;
    const delay = this.#full ? this.#retryMs : stdoutDefaults.flushIntervalMs;
    this.#timer = setTimeout(this.#tick, delay);
    this.#timer.unref();
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    const before = this.#written;
    this.#full = !this.#writeOut();
    if (!this.#full) {
      this.#retryMs = stdoutDefaults.retryMs;
      return;
    }
    this.#retryMs =
      this.#written !== before
        ? stdoutDefaults.retryMs
        : Math.min(this.#retryMs * 2, stdoutDefaults.maxRetryMs);
    this.#arm();
  };

  // The reader is gone, fd 1 is closed, or the reader stalled a synchronous flush: no entry
  // can be delivered any more, so stop collecting them.
  #close(): void {
    this.#closed = true;
    this.#pending = '';
    this.#out = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
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
    // KEELSON_LOG_FD=2 sends the log to stderr: `keelson openapi` sets it while it loads an app,
    // so the document it prints on stdout stays clean.
    const fd = process.env.KEELSON_LOG_FD === '2' ? 2 : (process.stdout.fd ?? 1);
    const destination = new FdDestination(fd);
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
