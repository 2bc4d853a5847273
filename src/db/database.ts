/**
 * `database()`: PostgreSQL for a service, a module that migrates at start, answers health,
 * relays its outbox, maps errors to problems and closes last.
 * @module
 */
import type { App, Module } from '../app.js';
import type { HealthChecker } from '../contracts.js';
import { DatabaseCore } from './core.js';
import {
  applyMigrations,
  type MigrationStatus,
  migrationStatus,
  migrationsDir,
} from './migrations.js';
import type { DatabaseOptions } from './options.js';
import { redactUrl } from './options.js';
import { Outbox } from './outbox/outbox.js';
import { OUTBOX_TABLES } from './outbox/schema.js';
import { type TopicSchemas, type Topics, typedTopics } from './outbox/topics.js';
import type {
  DeadEvent,
  PublishOptions,
  SubscribeOptions,
  SubscriberHandler,
} from './outbox/types.js';

/**
 * A PostgreSQL database: queries, transactions that follow the code, migrations, a transactional
 * outbox, and (used as a module) health, problem+json errors and an orderly close. Prefer
 * `database(options)`.
 */
export class Database extends DatabaseCore implements Module {
  /** A database belongs to the app, never to a group. */
  readonly appOnly = true;
  readonly #outbox: Outbox;

  /** See `database()`; `template` (for keelson/testing) starts the embedded engine from a dump. */
  constructor(options: DatabaseOptions = {}, template?: Blob) {
    super(options, template);
    const db = this;
    this.#outbox = new Outbox({
      query: (text, params) => this.query(text, params),
      transaction: (fn) => this.transaction(fn),
      get inTransaction() {
        return db.inTransaction;
      },
      listen: async (channel, fn) => (await this.open()).listen(channel, fn),
      log: () => this.log,
      metrics: () => this.app?.metrics,
      pollMs: this.options.outboxPollMs,
    });
  }

  /** The absolute path of the migrations folder; undefined when there are no migrations. */
  get migrationsPath(): string | undefined {
    const { migrations } = this.options;
    return migrations === undefined ? undefined : migrationsDir(migrations);
  }

  /** Applies the pending migrations (and makes the outbox's tables); resolves the files applied. */
  async migrate(): Promise<string[]> {
    const dir = this.migrationsPath;
    const applied = await applyMigrations(await this.open(), dir, OUTBOX_TABLES);
    for (const name of applied) this.log.info('migration %s applied', name);
    return applied;
  }

  /** Where each migration file stands (applied, pending, changed, missing). */
  async migrationStatus(): Promise<MigrationStatus[]> {
    const dir = this.migrationsPath;
    return dir === undefined ? [] : migrationStatus(await this.open(), dir);
  }

  /**
   * Writes an event to the outbox in the current transaction (throws outside one): it is
   * delivered to every subscriber of `topic` once the transaction commits, never if it rolls back.
   * @example await db.transaction(async () => { await createUser(u); await db.publish('user.created', { id: u.id }); });
   */
  publish(topic: string, payload: unknown, options?: PublishOptions): Promise<string> {
    return this.#outbox.publish(topic, payload, options);
  }

  /**
   * Handles the events of `topic`, at least once each, retried with backoff and dead-lettered
   * after `retries`; the handler runs in a transaction that also records the event as handled,
   * so its own database writes happen once. Events with the same key arrive in order.
   */
  subscribe(topic: string, handler: SubscriberHandler, options?: SubscribeOptions): this {
    this.#outbox.subscribe(topic, handler, options);
    return this;
  }

  /**
   * Typed topics: `publish` and `subscribe` checked against a schema per topic, and payloads
   * validated on both ends.
   * @example const events = db.topics({ 'user.created': z.object({ id: z.number() }) });
   */
  topics<M extends TopicSchemas>(schemas: M): Topics<M> {
    return typedTopics(this, schemas);
  }

  /** The dead-lettered deliveries, oldest first. */
  deadEvents(): Promise<DeadEvent[]> {
    return this.#outbox.dead();
  }

  /** Makes a dead-lettered event due again (for one subscriber, or all); resolves how many. */
  retryEvent(id: string, subscriber?: string): Promise<number> {
    return this.#outbox.retry(id, subscriber);
  }

  /** The embedded engine's data as a tarball (PGlite's `dumpDataDir`), for copies. */
  async dump(): Promise<Blob> {
    const engine = await this.open();
    if (!engine.dump) throw new Error('only the embedded engine (PGlite) can be dumped');
    // Without a checkpoint a copy starts its sequences from the values logged ahead (+32).
    await engine.query('checkpoint', []);
    return engine.dump();
  }

  /** A health checker named `database`: `select 1` within the health timeout. */
  healthChecker(): HealthChecker {
    return {
      name: () => 'database',
      check: async () => {
        try {
          await (await this.open()).query('select 1', []);
        } catch (err) {
          throw new Error(redactUrl(String((err as Error)?.message ?? err)));
        }
      },
    };
  }

  /** Stops the outbox relay (waiting for its handlers), then closes every connection. */
  override async close(): Promise<void> {
    await this.#outbox.stop();
    await super.close();
  }

  /**
   * Used by `app.use(db)`: adds the `database` health checker, runs the migrations and starts the
   * outbox relay when the app starts (before the port opens, or before `inject`'s first request),
   * stops the relay with the other shutdown hooks, and closes the pool after all of them.
   */
  register(app: App): void {
    if (this.app) throw new Error('this database is already used by an app');
    this.app = app;
    app.use(this.requestScope());
    app.registerHealthChecker(this.healthChecker());
    app.onStart(() => this.#start());
    app.onShutdown((signal) => this.#outbox.stop(signal));
    app.onShutdown(() => this.close(), { last: true });
  }

  async #start(): Promise<void> {
    await this.open();
    const where = this.engine === 'postgres' ? 'PostgreSQL at' : 'embedded PostgreSQL (PGlite) in';
    this.log.info('database: %s %s', where, this.location);
    // A database with neither migrations nor subscribers is not touched before its first query.
    const needed = this.options.migrations !== undefined || this.#outbox.subscribed;
    if (this.options.migrate && needed) await this.migrate();
    await this.#outbox.start();
  }
}

/**
 * A PostgreSQL database for a service: a server when `url` is `postgres://…`, else an embedded
 * one (PGlite) in `.keelson/db`, or in memory with `url: 'memory://'`.
 * @example
 * const db = database({ url: process.env.DATABASE_URL, migrations: 'migrations' });
 * app.use(db);
 */
export function database(options: DatabaseOptions = {}): Database {
  return new Database(options);
}
