import type { Logger } from '../logger/index.js';
import type { Engine } from './engine.js';
import type { ResolvedDatabaseOptions } from './options.js';
import { valueParsers } from './values.js';

/** Opens the engine the options name (loading its library on first use). */
export async function openEngine(
  options: ResolvedDatabaseOptions,
  logger: () => Logger,
  template?: Blob,
): Promise<Engine> {
  const common = {
    parsers: valueParsers(options.int8),
    connectTimeoutMs: options.pool.connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs,
  };
  if (options.engine.kind === 'postgres') {
    const { pgEngine } = await import('./pg-engine.js');
    return pgEngine({
      ...common,
      url: options.engine.url,
      max: options.pool.max,
      idleTimeoutMs: options.pool.idleTimeoutMs,
      logger,
    });
  }
  const { pgliteEngine } = await import('./pglite-engine.js');
  return pgliteEngine({ ...common, dataDir: options.engine.dataDir, template });
}
