/**
 * The outbox's own tables, made with the migrations (under their lock) by `db.migrate()`.
 * @module
 */

/** One statement each: the embedded engine runs one statement per query. */
export const OUTBOX_TABLES: readonly string[] = [
  `create table if not exists keelson_outbox (
    id bigserial primary key,
    topic text not null,
    key text,
    payload jsonb not null,
    created_at timestamptz not null default now()
  )`,
  `create table if not exists keelson_subscribers (
    name text primary key,
    topic text not null,
    since timestamptz not null default now()
  )`,
  `create table if not exists keelson_deliveries (
    event_id bigint not null references keelson_outbox (id) on delete cascade,
    subscriber text not null,
    state text not null default 'pending',
    attempts int not null default 0,
    due_at timestamptz not null,
    last_error text,
    done_at timestamptz,
    primary key (subscriber, event_id)
  )`,
  `create index if not exists keelson_deliveries_due on keelson_deliveries (subscriber, state, due_at)`,
];

/** The channel `publish` notifies (on commit) to wake the relays at once. */
export const OUTBOX_CHANNEL = 'keelson_outbox';
