/** A fixed-size buffer that keeps the last `capacity` items, oldest first. */
export class Ring<T> {
  readonly #items: (T | undefined)[];
  #next = 0;
  #size = 0;

  /** A ring holding at most `capacity` items. */
  constructor(readonly capacity: number) {
    this.#items = new Array<T | undefined>(capacity);
  }

  /** Adds an item, dropping the oldest when full. */
  push(item: T): void {
    this.#items[this.#next] = item;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#size < this.capacity) this.#size++;
  }

  /** The items, oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    const start = (this.#next - this.#size + this.capacity) % this.capacity;
    for (let i = 0; i < this.#size; i++) out.push(this.#items[(start + i) % this.capacity] as T);
    return out;
  }
}
