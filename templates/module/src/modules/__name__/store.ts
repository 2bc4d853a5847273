import { randomUUID } from 'node:crypto';
import type { __Entity__, __Entity__Input } from './schemas.js';

/** An in-memory store of __words__ records; swap it for a database in a real service. */
export class __Entities__Store {
  readonly #items = new Map<string, __Entity__>();

  /** A page of records in insertion order, and the total count. */
  list(limit: number, offset: number): { items: __Entity__[]; total: number } {
    const all = [...this.#items.values()];
    return { items: all.slice(offset, offset + limit), total: all.length };
  }

  /** The record with this id, if any. */
  find(id: string): __Entity__ | undefined {
    return this.#items.get(id);
  }

  /** Adds a record and returns it. */
  create(input: __Entity__Input): __Entity__ {
    const item = { id: randomUUID(), ...input, createdAt: new Date().toISOString() };
    this.#items.set(item.id, item);
    return item;
  }

  /** Replaces the fields of a record; undefined when there is none with this id. */
  replace(id: string, input: __Entity__Input): __Entity__ | undefined {
    const item = this.#items.get(id);
    if (!item) return undefined;
    const updated = { ...item, ...input };
    this.#items.set(id, updated);
    return updated;
  }

  /** Removes a record; false when there was none. */
  remove(id: string): boolean {
    return this.#items.delete(id);
  }
}
