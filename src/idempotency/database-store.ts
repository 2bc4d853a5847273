/**
 * Idempotency records in a keelson/db database, table `keelson_idempotency`. Its queries go
 * through `db.query` in the request's async context, so on a `db.transactional()` route they
 * join the handler's transaction: the answer commits with the handler's writes, or neither does.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from './store.js';

/** The table the database store keeps its records in. */
export const IDEMPOTENCY_TABLE = 'keelson_idempotency';

/**
 * The table, as the store creates it on first use; a migration may create it instead (for a
 * role without the CREATE privilege): the store then finds it and creates nothing.
 */
export const IDEMPOTENCY_TABLE_SQL = `create table if not exists ${IDEMPOTENCY_TABLE} (
  key text primary key,
  fingerprint text not null,
  token text,
  answer jsonb,
  expires_at timestamptz not null
);
create index if not exists ${IDEMPOTENCY_TABLE}_expires_at on ${IDEMPOTENCY_TABLE} (expires_at);`;

/**
 * The part of a keelson/db `Database` the store uses (the core does not import the data layer;
 * a `Database` fits).
 */
export interface IdempotencyDatabase {
  /** Runs one statement with `$1` parameters in the current async context (its transaction). */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `fn` in a transaction (keelson/db's `db.transaction`). */
  transaction<T>(fn: () => Promise<T> | T): Promise<T>;
  /** keelson/db's route middleware: how a `Database` is told from a store. */
  transactional(...args: never[]): unknown;
}

/** Expired records are deleted at most this often per process, a batch at a time. */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1000;
/** Separates the advisory locks of this store from an application's own. */
const LOCK_SEED = 735_120_024;

const MS = `$1::float8 * interval '1 millisecond'`;

interface Row {
  fingerprint: string;
  answer: StoredAnswer | null;
}

/**
 * Idempotency records in `db`. Usually not called: `idempotency({ store: db })` makes one.
 * Table `keelson_idempotency` is created at first use when absent (see IDEMPOTENCY_TABLE_SQL).
 */
export function databaseIdempotencyStore(db: IdempotencyDatabase): IdempotencyStore {
  // The table is made, and old records swept, outside any request's transaction: in the
  // context this store was made in (app setup), never in a transaction that may roll back.
  const outside = AsyncLocalStorage.snapshot();
  let ready: Promise<void> | undefined;
  let sweptAt = Date.now();
  const ensureTable = (): Promise<void> => {
    ready ??= outside(async () => {
      const found = await db.query<{ t: string | null }>('select to_regclass($1)::text as t', [
        IDEMPOTENCY_TABLE,
      ]);
      if (found[0]?.t) return;
      // Replicas starting together: the lock lets one make the table while the others wait, as
      // two concurrent `create … if not exists` can clash in the catalog (23505 or 42P07).
      await db.transaction(async () => {
        await db.query('select pg_advisory_xact_lock(hashtextextended($1, $2))', [
          IDEMPOTENCY_TABLE,
          LOCK_SEED,
        ]);
        for (const statement of IDEMPOTENCY_TABLE_SQL.split(';\n')) await db.query(statement);
      });
    }).catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
  const sweep = () => {
    const now = Date.now();
    if (now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    outside(() =>
      db.query(
        `delete from ${IDEMPOTENCY_TABLE} where key in (select key from ${IDEMPOTENCY_TABLE} where expires_at < now() limit ${SWEEP_BATCH})`,
      ),
    ).catch(() => {}); // the next sweep tries again; an expired record is ignored meanwhile
  };

  const claimOnce = async (key: string, fingerprint: string, lockMs: number) => {
    // In a transaction, the row of a request still running is not visible and an insert of the
    // same key would wait for it: the lock tells "running" at once. Outside one, it is held for
    // this statement only, and the committed row says it.
    const locked = await db.query<{ locked: boolean }>(
      'select pg_try_advisory_xact_lock(hashtextextended($1, $2)) as locked',
      [key, LOCK_SEED],
    );
    if (locked[0]?.locked !== true) return { state: 'running' } as const;
    const token = randomUUID();
    const inserted = await db.query(
      `insert into ${IDEMPOTENCY_TABLE} as t (key, fingerprint, token, answer, expires_at)
       values ($2, $3, $4, null, now() + ${MS})
       on conflict (key) do update set fingerprint = excluded.fingerprint, token = excluded.token,
         answer = null, expires_at = excluded.expires_at
       where t.expires_at <= now()
       returning key`,
      [lockMs, key, fingerprint, token],
    );
    if (inserted.length === 1) return { state: 'claimed', token } as const;
    const rows = await db.query<Row>(
      `select fingerprint, answer from ${IDEMPOTENCY_TABLE} where key = $1`,
      [key],
    );
    const row = rows[0];
    if (!row) return undefined; // released between the two statements: claim again
    return row.answer === null
      ? ({ state: 'running', fingerprint: row.fingerprint } as const)
      : ({ state: 'done', fingerprint: row.fingerprint, answer: row.answer } as const);
  };

  return {
    async claim(key, fingerprint, lockMs): Promise<IdempotencyClaim> {
      await ensureTable();
      sweep();
      return (
        (await claimOnce(key, fingerprint, lockMs)) ??
        (await claimOnce(key, fingerprint, lockMs)) ?? { state: 'running' }
      );
    },
    async complete(key, token, answer, ttlMs) {
      await db.query(
        `update ${IDEMPOTENCY_TABLE} set answer = $4::jsonb, token = null, expires_at = now() + ${MS}
         where key = $2 and token = $3`,
        [ttlMs, key, token, JSON.stringify(answer)],
      );
    },
    async release(key, token) {
      await db.query(`delete from ${IDEMPOTENCY_TABLE} where key = $1 and token = $2`, [
        key,
        token,
      ]);
    },
  };
}
