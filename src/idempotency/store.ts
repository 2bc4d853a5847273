/**
 * Where idempotency records live: the contract every store keeps (claim a key, complete it
 * with the answer, or release it), and the in-memory store for one process and tests.
 * @module
 */
import { randomUUID } from 'node:crypto';

/** The body of a stored answer, in a form every store can keep as text. */
export type StoredBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json' | 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly base64: string };

/** An answer kept for replays: its status, the headers the handler set, and its body. */
export interface StoredAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The headers the handler (and the middleware inside `idempotency`) set, lower-case names. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The body the handler returned. */
  readonly body: StoredBody;
}

/** What a store says when a request claims a key. */
export type IdempotencyClaim =
  /** The key was free (or expired): this request runs, and later completes or releases it. */
  | { readonly state: 'claimed'; readonly token: string }
  /** Another request holds the key; its fingerprint, when the store can see it. */
  | { readonly state: 'running'; readonly fingerprint?: string | undefined }
  /** A request with this key has answered. */
  | { readonly state: 'done'; readonly fingerprint: string; readonly answer: StoredAnswer };

/**
 * Where idempotency records live. Three methods, so a store for another engine is a few lines;
 * `claim` must be atomic: of two requests claiming one key, one gets `claimed`.
 */
export interface IdempotencyStore {
  /** Claims `key` for a request whose fingerprint is `fingerprint`, for at most `lockMs`. */
  claim(key: string, fingerprint: string, lockMs: number): Promise<IdempotencyClaim>;
  /** Keeps `answer` under the claimed `key` for `ttlMs`; a no-op when `token` no longer holds it. */
  complete(key: string, token: string, answer: StoredAnswer, ttlMs: number): Promise<void>;
  /** Frees the claimed `key` (the request failed); a no-op when `token` no longer holds it. */
  release(key: string, token: string): Promise<void>;
}

/** Options of the in-memory store. */
export interface MemoryIdempotencyStoreOptions {
  /** Records kept at most; the oldest go first. @default 10000 */
  maxKeys?: number;
}

interface MemoryRecord {
  readonly fingerprint: string;
  readonly token: string | undefined;
  readonly answer: StoredAnswer | undefined;
  readonly expiresAt: number;
}

/**
 * Idempotency records in this process's memory: for one instance and for tests. Replicas
 * behind a load balancer need a shared store (the database or Redis).
 * @example idempotency({ store: memoryIdempotencyStore() })
 */
export function memoryIdempotencyStore({
  maxKeys = 10_000,
}: MemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  if (!Number.isInteger(maxKeys) || maxKeys < 1) {
    throw new TypeError(
      `memoryIdempotencyStore maxKeys must be an integer >= 1, got ${String(maxKeys)}`,
    );
  }
  const records = new Map<string, MemoryRecord>();
  const live = (key: string, now: number): MemoryRecord | undefined => {
    const record = records.get(key);
    if (record && record.expiresAt <= now) {
      records.delete(key);
      return undefined;
    }
    return record;
  };
  const put = (key: string, record: MemoryRecord) => {
    records.delete(key); // re-inserted last: the Map's order is the age order
    records.set(key, record);
    if (records.size > maxKeys) records.delete(records.keys().next().value as string);
  };
  return {
    async claim(key, fingerprint, lockMs) {
      const record = live(key, Date.now());
      if (record?.answer)
        return { state: 'done', fingerprint: record.fingerprint, answer: record.answer };
      if (record) return { state: 'running', fingerprint: record.fingerprint };
      const token = randomUUID();
      put(key, { fingerprint, token, answer: undefined, expiresAt: Date.now() + lockMs });
      return { state: 'claimed', token };
    },
    async complete(key, token, answer, ttlMs) {
      const record = live(key, Date.now());
      if (record?.token !== token) return;
      put(key, {
        fingerprint: record.fingerprint,
        token: undefined,
        answer,
        expiresAt: Date.now() + ttlMs,
      });
    },
    async release(key, token) {
      if (records.get(key)?.token === token) records.delete(key);
    },
  };
}
