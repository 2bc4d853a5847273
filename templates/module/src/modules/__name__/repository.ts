import type { Database } from 'keelson/db';
import type { __Entity__, __Entity__Input } from './schemas.js';

interface Row {
  id: number;
  name: string;
  created_at: Date;
}

const toEntity = (row: Row): __Entity__ => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
});

/** The __words__ records in the `__table__` table (see migrations/). */
export class __Entities__Repository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Up to `limit` records with an id above `after`, in id order, and the cursor of the next page
   * (keyset pagination: a page costs the same however deep it is, and inserts never shift it).
   */
  async list(limit: number, after = 0): Promise<{ items: __Entity__[]; next: number | null }> {
    const rows = await this.#db.sql<Row>`
      select id, name, created_at from __table__
      where id > ${after} order by id limit ${limit + 1}`;
    const items = rows.slice(0, limit).map(toEntity);
    return { items, next: rows.length > limit ? items.at(-1)!.id : null };
  }

  /** The record with this id, if any. */
  async find(id: number): Promise<__Entity__ | undefined> {
    const row = await this.#db.sql<Row>`
      select id, name, created_at from __table__ where id = ${id}`.maybeOne();
    return row && toEntity(row);
  }

  /** Adds a record and returns it. */
  async create(input: __Entity__Input): Promise<__Entity__> {
    const row = await this.#db.sql<Row>`
      insert into __table__ (name) values (${input.name})
      returning id, name, created_at`.one();
    return toEntity(row);
  }

  /** Replaces the fields of a record; undefined when there is none with this id. */
  async replace(id: number, input: __Entity__Input): Promise<__Entity__ | undefined> {
    const row = await this.#db.sql<Row>`
      update __table__ set name = ${input.name} where id = ${id}
      returning id, name, created_at`.maybeOne();
    return row && toEntity(row);
  }

  /** Removes a record; false when there was none. */
  async remove(id: number): Promise<boolean> {
    const rows = await this.#db.sql`delete from __table__ where id = ${id} returning id`;
    return rows.length > 0;
  }
}
