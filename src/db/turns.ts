/**
 * First come, first served: one holder at a time, waiters bounded by a timeout.
 * @module
 */

/** A queue of callers taking turns at one resource (PGlite's single connection). */
export class Turns {
  #busy = false;
  readonly #waiting: Array<(done: () => void) => void> = [];

  /** Resolves a function that ends the turn, or `undefined` when `timeoutMs` passed first. */
  take(timeoutMs: number): Promise<(() => void) | undefined> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve(this.#ender());
    }
    return new Promise((resolve) => {
      const grant = (done: () => void) => {
        clearTimeout(timer);
        resolve(done);
      };
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve(undefined);
      }, timeoutMs);
      this.#waiting.push(grant);
    });
  }

  /** Resolves once no one holds a turn (or after `timeoutMs`). */
  async closed(timeoutMs: number): Promise<void> {
    const done = await this.take(timeoutMs);
    done?.();
  }

  #ender(): () => void {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = this.#waiting.shift();
      if (next) next(this.#ender());
      else this.#busy = false;
    };
  }
}
