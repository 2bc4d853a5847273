/**
 * `keelson db events --dead | --retry <id>`: the outbox's dead letters, listed and re-driven.
 * @module
 */
import type { Database } from '../db/database.js';
import { type CliIo, type Parsed, stringOption, UsageError } from './usage.js';

/** Lists the dead-lettered events, or makes one due again; returns the exit code. */
export async function eventsCommand(db: Database, parsed: Parsed, io: CliIo): Promise<number> {
  const retry = stringOption(parsed, 'retry');
  const dead = parsed.values.dead === true;
  if (dead === (retry !== undefined)) {
    throw new UsageError('say what to do: keelson db events --dead, or --retry <event id>');
  }
  if (retry !== undefined) {
    if (!/^\d+$/.test(retry))
      throw new UsageError(`--retry takes an event id, got ${JSON.stringify(retry)}`);
    const subscriber = stringOption(parsed, 'subscriber');
    const count = await db.retryEvent(retry, subscriber);
    if (count === 0) {
      io.err(`event ${retry} has no dead delivery${subscriber ? ` for ${subscriber}` : ''}`);
      return 1;
    }
    io.out(`event ${retry}: ${count} ${count === 1 ? 'delivery' : 'deliveries'} due again`);
    return 0;
  }
  const rows = await db.deadEvents();
  if (rows.length === 0) io.out('no dead events');
  for (const r of rows) {
    io.out(
      `${r.id}  ${r.topic}  ${r.subscriber}  ${r.attempts} tries  ${r.lastError ?? ''}`.trimEnd(),
    );
  }
  return 0;
}
