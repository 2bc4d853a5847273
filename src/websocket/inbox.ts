/**
 * The messages of one WebSocket connection waiting for its handler: handled one at a time, in
 * order, with back-pressure on the socket so a client that sends faster than the handler works
 * cannot make them pile up in memory.
 * @module
 */

/** The side of the socket an Inbox works: whether it is open, and its reading switch. */
export interface Readable {
  /** 1 while open; anything else means the connection is closing or closed. */
  readonly readyState: number;
  /** Stops reading from the connection: what the client sends waits in TCP. */
  pause(): void;
  /** Reads from the connection again. */
  resume(): void;
}

/** What waits in an Inbox: a piece of work and the bytes it holds. */
interface Job {
  readonly run: () => Promise<unknown>;
  readonly bytes: number;
}

/** Reading pauses once the waiting messages hold this many bytes, whatever their count. */
export const PAUSE_BYTES = 1024 * 1024;

const OPEN = 1;

/**
 * One connection's queue. Reading pauses once `maxQueued` messages (or PAUSE_BYTES) wait, and
 * resumes once half of them are handled. Messages read before the pause took effect still
 * arrive: one past `maxQueued` calls `overflow` and empties the queue. Once the connection
 * leaves the open state, waiting messages are dropped: nobody is left to answer.
 */
export class Inbox {
  readonly #socket: Readable;
  readonly #maxQueued: number;
  readonly #overflow: () => void;
  readonly #jobs: Job[] = [];
  #bytes = 0;
  #paused = false;
  #running: Promise<void> | undefined;

  /** An inbox of `socket`, where at most `maxQueued` messages wait. */
  constructor(socket: Readable, maxQueued: number, overflow: () => void) {
    this.#socket = socket;
    this.#maxQueued = maxQueued;
    this.#overflow = overflow;
  }

  /** How many messages wait (the one being handled not included). */
  get waiting(): number {
    return this.#jobs.length;
  }

  /** True while reading is paused because too much waits. */
  get paused(): boolean {
    return this.#paused;
  }

  /**
   * Queues `run`, a message's handling that holds `bytes`; a message that arrives once the
   * connection is closing is dropped.
   */
  push(run: () => Promise<unknown>, bytes: number): void {
    if (this.#socket.readyState !== OPEN) return;
    if (this.#jobs.length >= this.#maxQueued) {
      this.drop();
      this.#overflow();
      return;
    }
    this.#jobs.push({ run, bytes });
    this.#bytes += bytes;
    // An idle inbox takes the job at once: only what is left waits, and counts.
    this.#running ??= this.#drain();
    if (!this.#paused && (this.#jobs.length >= this.#maxQueued || this.#bytes >= PAUSE_BYTES)) {
      this.#paused = true;
      this.#socket.pause();
    }
  }

  /** Forgets the waiting messages (the one being handled finishes) and reads again. */
  drop(): void {
    this.#jobs.length = 0;
    this.#bytes = 0;
    this.#resume();
  }

  /** Resolves once no message is being handled. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    for (let job = this.#jobs.shift(); job; job = this.#jobs.shift()) {
      this.#bytes -= job.bytes;
      if (
        this.#paused &&
        this.#jobs.length <= this.#maxQueued / 2 &&
        this.#bytes < PAUSE_BYTES / 2
      ) {
        this.#resume();
      }
      // Failures are the job's own to report.
      await job.run().catch(() => {});
      if (this.#socket.readyState !== OPEN) this.drop();
    }
    this.#running = undefined;
  }

  #resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#socket.resume();
  }
}
