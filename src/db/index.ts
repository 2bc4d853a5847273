/**
 * keelson/db: PostgreSQL for a service (node-postgres with a `postgres://` URL, else an
 * embedded PostgreSQL through PGlite), with migrations, transactions that follow the code,
 * problem+json errors, health and an orderly close. Install `pg` or `@electric-sql/pglite`.
 * @module
 */

export type { TransactionOptions } from './core.js';
export { Database, database } from './database.js';
export type { Engine, EngineConnection, EngineField, EngineResult } from './engine.js';
export { type ConstraintHandler, DatabaseError, type DatabaseErrorKind } from './errors.js';
export { MigrationError, type MigrationStatus } from './migrations.js';
export type { DatabaseOptions, PoolOptions } from './options.js';
export { TopicPayloadError, type TopicSchemas, type Topics } from './outbox/topics.js';
export type {
  DeadEvent,
  Delivery,
  OutboxEvent,
  PublishOptions,
  SubscribeOptions,
  SubscriberHandler,
} from './outbox/types.js';
export { type CompiledSql, type Sql, SqlFragment, SqlQuery } from './sql.js';
export type { IsolationLevel } from './tx.js';
export type { Int8Mode } from './values.js';
