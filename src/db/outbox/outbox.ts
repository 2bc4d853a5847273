/**
 * The transactional outbox: `publish` writes an event in the caller's transaction; a relay on
 * every replica claims due deliveries with `FOR UPDATE SKIP LOCKED` and runs each subscriber's
 * handler in a transaction that also marks the delivery done.
 * @module
 */
import { describeError } from '../../errors/describe.js';
import { Relay, type Subscriber } from './relay.js';
import { OUTBOX_CHANNEL } from './schema.js';
import type {
  DeadEvent,
  OutboxHost,
  PublishOptions,
  SubscribeOptions,
  SubscriberHandler,
} from './types.js';

/** Publishing and subscribing; one per Database. */
export class Outbox {
  readonly #host: OutboxHost;
  readonly #subscribers: Subscriber[] = [];
  #relay: Relay | undefined;

  /** Made by the Database. */
  constructor(host: OutboxHost) {
    this.#host = host;
  }

  /** True once a subscriber was added. */
  get subscribed(): boolean {
    return this.#subscribers.length > 0;
  }

  /** Writes the event in the current transaction; resolves its id. Throws outside a transaction. */
  async publish(topic: string, payload: unknown, options: PublishOptions = {}): Promise<string> {
    if (typeof topic !== 'string' || topic === '') {
      throw new TypeError(
        `db.publish: topic should be a non-empty string, instead got ${String(topic)}`,
      );
    }
    if (!this.#host.inTransaction) {
      throw new Error(
        `db.publish('${topic}') must run inside a transaction (db.transaction or a db.transactional() route), so the event is written with the change it reports`,
      );
    }
    const delayMs = options.delayMs ?? 0;
    if (!Number.isFinite(delayMs) || delayMs < 0) {
      throw new TypeError(
        `db.publish: delayMs should be a number >= 0, instead got ${String(delayMs)}`,
      );
    }
    const [event] = await this.#host.query<{ id: string }>(
      'insert into keelson_outbox (topic, key, payload) values ($1, $2, $3::jsonb) returning id',
      [topic, options.key ?? null, JSON.stringify(payload ?? null)],
    );
    await this.#host.query(
      `insert into keelson_deliveries (event_id, subscriber, due_at)
       select $1, name, now() + $3 * interval '1 millisecond' from keelson_subscribers where topic = $2`,
      [event!.id, topic, delayMs],
    );
    await this.#host.query('select pg_notify($1, $2)', [OUTBOX_CHANNEL, topic]);
    return event!.id;
  }

  /** Adds a subscriber; its relay starts with the app (or at once when it already runs). */
  subscribe(topic: string, handler: SubscriberHandler, options: SubscribeOptions = {}): void {
    if (typeof handler !== 'function')
      throw new TypeError('db.subscribe: handler should be a function');
    const name = options.name ?? handler.name;
    if (!name) {
      throw new TypeError(
        `db.subscribe('${topic}'): give the subscriber a stable name, e.g. { name: 'send-welcome-email' }`,
      );
    }
    if (this.#subscribers.some((s) => s.name === name)) {
      throw new Error(`db.subscribe: a subscriber named "${name}" already exists`);
    }
    const count = (field: string, value: number | undefined, fallback: number, min: number) => {
      const v = value ?? fallback;
      if (!Number.isInteger(v) || v < min) {
        throw new TypeError(
          `db.subscribe: ${field} should be an integer >= ${min}, instead got ${String(v)}`,
        );
      }
      return v;
    };
    const subscriber: Subscriber = {
      name,
      topic,
      handler,
      retries: count('retries', options.retries, 5, 0),
      backoffMs: count('backoffMs', options.backoffMs, 1000, 0),
      concurrency: count('concurrency', options.concurrency, 1, 1),
    };
    this.#subscribers.push(subscriber);
    this.#relay
      ?.add(subscriber)
      .catch((err: unknown) =>
        this.#host
          .log()
          .failure('outbox subscriber %s did not start: %s', name, describeError(err)),
      );
  }

  /** Starts the relay (once); nothing to do without subscribers. */
  async start(): Promise<void> {
    if (this.#relay || this.#subscribers.length === 0) return;
    this.#relay = new Relay(this.#host);
    for (const s of this.#subscribers) await this.#relay.add(s);
  }

  /** Stops claiming; waits for handlers in flight until `signal` aborts (theirs abort with it). */
  async stop(signal?: AbortSignal): Promise<void> {
    await this.#relay?.stop(signal);
  }

  /** The dead-lettered deliveries, oldest first. */
  async dead(): Promise<DeadEvent[]> {
    return this.#host.query<DeadEvent>(
      `select o.id, o.topic, d.subscriber, d.attempts, d.last_error as "lastError"
       from keelson_deliveries d join keelson_outbox o on o.id = d.event_id
       where d.state = 'dead' order by o.id`,
    );
  }

  /** Makes a dead-lettered event due again (for one subscriber, or all); resolves how many. */
  async retry(id: string, subscriber?: string): Promise<number> {
    const rows = await this.#host.query(
      `update keelson_deliveries set state = 'pending', attempts = 0, due_at = now(), last_error = null
       where event_id = $1 and state = 'dead' and ($2::text is null or subscriber = $2) returning event_id`,
      [id, subscriber ?? null],
    );
    if (rows.length > 0) await this.#host.query('select pg_notify($1, $2)', [OUTBOX_CHANNEL, '*']);
    return rows.length;
  }
}
