/**
 * What publishers and subscribers of the outbox write.
 * @module
 */
import type { MetricsCollector } from '../../contracts.js';
import type { Logger } from '../../logger/index.js';

/** Options of `db.publish`. */
export interface PublishOptions {
  /** Events with the same key reach each subscriber in the order they were published. */
  key?: string;
  /** Deliver no sooner than this many milliseconds after the commit. */
  delayMs?: number;
}

/** One event as a subscriber receives it. */
export interface OutboxEvent<P = unknown> {
  /** The event's id (a bigserial, as a string). */
  readonly id: string;
  /** The topic it was published on. */
  readonly topic: string;
  /** Its key, when it has one. */
  readonly key: string | null;
  /** The payload, as published (JSON). */
  readonly payload: P;
  /** When it was published. */
  readonly publishedAt: Date;
}

/** What a subscriber's handler is given. */
export interface Delivery<P = unknown> {
  /** The event. */
  readonly event: OutboxEvent<P>;
  /** 1 for the first try, 2 for the first retry, …. */
  readonly attempt: number;
  /** Aborts at the shutdown deadline: stop, and the event is delivered again later. */
  readonly signal: AbortSignal;
}

/** A subscriber's handler: runs in a transaction that also records the event as handled. */
export type SubscriberHandler<P = unknown> = (delivery: Delivery<P>) => Promise<void> | void;

/** Options of `db.subscribe`. */
export interface SubscribeOptions {
  /** A stable name, the same on every replica; default: the handler function's name. */
  name?: string;
  /** Tries after the first before the event is dead-lettered. @default 5 */
  retries?: number;
  /** The first retry's delay; each later one doubles it. @default 1000 */
  backoffMs?: number;
  /** Events handled at once by this subscriber on each replica. @default 1 */
  concurrency?: number;
}

/** A dead-lettered delivery, for `keelson db events --dead`. */
export interface DeadEvent {
  /** The event's id. */
  readonly id: string;
  /** The topic it was published on. */
  readonly topic: string;
  /** The subscriber that gave it up. */
  readonly subscriber: string;
  /** Tries made, the first included. */
  readonly attempts: number;
  /** The first line of the last try's error. */
  readonly lastError: string | null;
}

/** What the outbox needs of its database. */
export interface OutboxHost {
  /** Runs one statement in the current transaction, if any. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `fn` in a transaction (a savepoint inside one). */
  transaction<T>(fn: () => Promise<T> | T): Promise<T>;
  /** True inside a transaction. */
  readonly inTransaction: boolean;
  /** Calls `fn` on each notification of `channel` until the returned function is called. */
  listen(channel: string, fn: () => void): Promise<() => Promise<void>>;
  /** The logger to write to now. */
  log(): Logger;
  /** The app's metrics collector, if any. */
  metrics(): MetricsCollector | undefined;
  /** How often an idle relay looks for due events, in ms. */
  readonly pollMs: number;
}
