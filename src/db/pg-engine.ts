/**
 * The node-postgres engine: a pool of connections to a PostgreSQL server.
 * @module
 */
import type { Logger } from '../logger/index.js';
import {
  type Engine,
  type EngineConnection,
  type EngineResult,
  type EngineSettings,
  PoolTimeoutError,
} from './engine.js';
import { loadPg } from './peer.js';

/** Pool settings for a PostgreSQL server. */
export interface PgEngineSettings extends EngineSettings {
  readonly url: string;
  readonly max: number;
  readonly idleTimeoutMs: number;
  readonly logger: () => Logger;
}

/** Opens a pool on `url`; connections are made on demand. */
export async function pgEngine(settings: PgEngineSettings): Promise<Engine> {
  const { default: pg } = await loadPg();
  const { parsers } = settings;
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.max,
    idleTimeoutMillis: settings.idleTimeoutMs,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        (format ?? 'text') === 'text' && parsers[oid]
          ? parsers[oid]
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server drops must not crash the process: the next query reconnects.
  pool.on('error', (err) => settings.logger().warn('database connection lost: %s', err.message));
  const timedOut = (err: unknown) =>
    err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message)
      ? new PoolTimeoutError(settings.connectTimeoutMs)
      : err;
  const shape = (r: { rows: unknown[]; rowCount: number | null; fields: EngineResult['fields'] }) =>
    ({
      rows: r.rows as Record<string, unknown>[],
      rowCount: r.rowCount ?? r.rows.length,
      fields: r.fields,
    }) satisfies EngineResult;
  return {
    kind: 'postgres',
    async query(text, params) {
      try {
        return shape(await pool.query(text, params as unknown[]));
      } catch (err) {
        throw timedOut(err);
      }
    },
    async connect(): Promise<EngineConnection> {
      const client = await pool.connect().catch((err: unknown) => Promise.reject(timedOut(err)));
      return {
        query: async (text, params) => shape(await client.query(text, params as unknown[])),
        exec: async (text) => {
          await client.query(text);
        },
        release: (broken) => client.release(broken === true),
      };
    },
    async listen(channel, fn) {
      // LISTEN needs a connection of its own for as long as it listens, outside the pool.
      const client = new pg.Client({ connectionString: settings.url });
      client.on('error', (err) =>
        settings.logger().warn('database notifications lost: %s', err.message),
      );
      client.on('notification', (n) => {
        if (n.channel === channel) fn();
      });
      await client.connect();
      await client.query(`listen ${channel}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    close: () => pool.end(),
  };
}
