/**
 * The relay: workers per subscriber that claim one due delivery at a time and run its handler.
 * @module
 */
import { describeError } from '../../errors/describe.js';
import { OUTBOX_CHANNEL } from './schema.js';
import type { OutboxEvent, OutboxHost, SubscriberHandler } from './types.js';

/** A subscriber with its options resolved. */
export interface Subscriber {
  readonly name: string;
  readonly topic: string;
  readonly handler: SubscriberHandler;
  readonly retries: number;
  readonly backoffMs: number;
  readonly concurrency: number;
}

interface Claimed {
  id: string;
  topic: string;
  key: string | null;
  payload: unknown;
  created_at: Date;
  attempts: number;
}

// The oldest due delivery of a subscriber that no other worker holds and that no earlier
// pending event with the same key holds back (a dead one no longer does).
const CLAIM = `
  select o.id, o.topic, o.key, o.payload, o.created_at, d.attempts
  from keelson_deliveries d join keelson_outbox o on o.id = d.event_id
  where d.subscriber = $1 and d.state = 'pending' and d.due_at <= now()
    and (o.key is null or not exists (
      select 1 from keelson_deliveries d2 join keelson_outbox o2 on o2.id = d2.event_id
      where d2.subscriber = d.subscriber and d2.state = 'pending' and o2.key = o.key and o2.id < o.id))
  order by d.event_id
  limit 1
  for update of d skip locked`;

/** Runs the subscribers' workers until stopped. */
export class Relay {
  readonly #host: OutboxHost;
  readonly #workers: Promise<void>[] = [];
  readonly #stopping = new AbortController();
  readonly #deadline = new AbortController();
  readonly #wakers = new Set<() => void>();
  #unlisten: Promise<() => Promise<void>> | undefined;

  /** Made by the outbox's `start`. */
  constructor(host: OutboxHost) {
    this.#host = host;
  }

  /** Records the subscriber (so later events get a delivery for it) and starts its workers. */
  async add(s: Subscriber): Promise<void> {
    await this.#host.query(
      `insert into keelson_subscribers (name, topic) values ($1, $2)
       on conflict (name) do update set topic = excluded.topic`,
      [s.name, s.topic],
    );
    this.#unlisten ??= this.#host
      .listen(OUTBOX_CHANNEL, () => this.#wakeAll())
      .catch((err: unknown) => {
        this.#host.log().warn('outbox: no notifications (%s); polling', describeError(err));
        return async () => {};
      });
    for (let i = 0; i < s.concurrency; i++) this.#workers.push(this.#work(s));
  }

  /** Stops claiming, waits for the handlers in flight; at `signal` their signals abort. */
  async stop(signal?: AbortSignal): Promise<void> {
    this.#stopping.abort();
    this.#wakeAll();
    const onDeadline = () => this.#deadline.abort(new Error('the shutdown deadline has passed'));
    signal?.addEventListener('abort', onDeadline, { once: true });
    try {
      await Promise.all(this.#workers);
    } finally {
      signal?.removeEventListener('abort', onDeadline);
      await (await this.#unlisten)?.().catch(() => {});
    }
  }

  async #work(s: Subscriber): Promise<void> {
    while (!this.#stopping.signal.aborted) {
      let handled = false;
      try {
        handled = await this.#deliverOne(s);
      } catch (err) {
        this.#host.log().warn('outbox subscriber %s: %s', s.name, describeError(err));
      }
      if (!handled) await this.#idle();
    }
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.#host.pollMs);
      this.#wakers.add(wake);
      if (this.#stopping.signal.aborted) wake();
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  #deliverOne(s: Subscriber): Promise<boolean> {
    const host = this.#host;
    return host.transaction(async () => {
      const [row] = await host.query<Claimed>(CLAIM, [s.name]);
      if (!row) return false;
      const attempt = row.attempts + 1;
      const event: OutboxEvent = {
        id: row.id,
        topic: row.topic,
        key: row.key,
        payload: row.payload,
        publishedAt: row.created_at,
      };
      const started = performance.now();
      // A savepoint: the handler's writes go with its failure, the bookkeeping stays.
      const failure = await host
        .transaction(() => s.handler({ event, attempt, signal: this.#deadline.signal }))
        .then(
          () => undefined,
          (err: unknown) => err ?? new Error('the handler failed'),
        );
      // Cut off by the shutdown: roll the claim back, the event stays due for the next replica.
      if (failure !== undefined && this.#deadline.signal.aborted) throw failure;
      const durationMs = performance.now() - started;
      const metric = { queue: 'outbox', job: s.name, durationMs };
      if (failure === undefined) {
        await host.query(
          `update keelson_deliveries set state = 'done', attempts = $3, done_at = now(), last_error = null
           where subscriber = $1 and event_id = $2`,
          [s.name, row.id, attempt],
        );
        host.metrics()?.recordJob?.({ ...metric, status: 'completed' });
        return true;
      }
      host.metrics()?.recordJob?.({ ...metric, status: 'failed' });
      const reason = describeError(failure).split('\n')[0]!;
      const dead = attempt > s.retries;
      await host.query(
        `update keelson_deliveries set state = $3, attempts = $4, last_error = $5,
           due_at = clock_timestamp() + $6 * interval '1 millisecond'
         where subscriber = $1 and event_id = $2`,
        [
          s.name,
          row.id,
          dead ? 'dead' : 'pending',
          attempt,
          reason,
          s.backoffMs * 2 ** (attempt - 1),
        ],
      );
      if (dead) {
        host
          .log()
          .failure(
            'outbox event %s (%s) dead-lettered for %s after %d tries: %s',
            row.id,
            row.topic,
            s.name,
            attempt,
            reason,
          );
      } else {
        host
          .log()
          .warn(
            'outbox event %s (%s) failed in %s (try %d): %s',
            row.id,
            row.topic,
            s.name,
            attempt,
            reason,
          );
      }
      return true;
    });
  }
}
