/**
 * The queues of a Redis-backed test file: one redis-server for the describe block, fresh queue
 * names, and every queue closed after each test.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type JobQueue, type QueueOptions, queue } from '../../src/integrations/queue/index.js';
import { memoryLogger } from '../app/helpers.js';
import { type RedisServer, startRedis } from '../support/redis.js';

/** Call inside a describe block; `make()` gives a queue on its Redis with a memory logger. */
export function redisQueues<S extends StandardSchemaV1>(prefix: string, payload: S) {
  let server: RedisServer | undefined;
  let n = 0;
  const open: JobQueue<S>[] = [];
  beforeAll(async () => {
    server = await startRedis();
  });
  afterEach(async () => {
    // Not an aborted signal: a forced close would cut BullMQ's last commands of a job that has
    // just finished (an unhandled "Connection is closed" rejection in a later test).
    for (const q of open.splice(0)) await q.close(AbortSignal.timeout(5_000));
  });
  afterAll(async () => {
    await server?.stop();
  });
  const name = () => `${prefix}-${++n}`;
  const connection = () => ({ host: '127.0.0.1', port: server!.port });
  /** Closes `q` after the test. */
  const track = (q: JobQueue<S>) => {
    open.push(q);
    return q;
  };
  const make = (extra: Partial<QueueOptions<S>> = {}) => {
    const log = memoryLogger();
    const q = queue(name(), { connection: connection(), payload, logger: log.logger, ...extra });
    return { q: track(q), lines: log.lines };
  };
  return { make, name, connection, track };
}
