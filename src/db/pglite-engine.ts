/**
 * The embedded engine: PostgreSQL compiled to WebAssembly (PGlite), in this process, stored in
 * a directory or in memory. It has one connection, so a transaction holds it alone: every
 * other query waits its turn, at most the connect timeout.
 * @module
 */
import { mkdirSync } from 'node:fs';
import type { Engine, EngineConnection, EngineResult, EngineSettings } from './engine.js';
import { PoolTimeoutError } from './engine.js';
import { loadPglite } from './peer.js';
import { Turns } from './turns.js';

/** Where PGlite keeps its data: a directory, or `undefined` for memory. */
export interface PgliteEngineSettings extends EngineSettings {
  readonly dataDir: string | undefined;
  /** A dump (`dumpDataDir`) to start from instead of a new cluster: much faster than initdb. */
  readonly template?: Blob | undefined;
}

/** Starts PGlite (a few seconds on first use of a directory: it creates the cluster). */
export async function pgliteEngine(settings: PgliteEngineSettings): Promise<Engine> {
  const { PGlite } = await loadPglite();
  if (settings.dataDir !== undefined) mkdirSync(settings.dataDir, { recursive: true });
  const db = await PGlite.create(settings.dataDir, {
    parsers: { ...settings.parsers },
    ...(settings.template ? { loadDataDir: settings.template } : {}),
  });
  if (settings.statementTimeoutMs > 0) {
    await db.exec(`set statement_timeout = ${Math.floor(settings.statementTimeoutMs)}`);
  }
  const turns = new Turns();
  const run = async (text: string, params: readonly unknown[]): Promise<EngineResult> => {
    const r = await db.query<Record<string, unknown>>(text, params as unknown[]);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, fields: r.fields };
  };
  const take = async () => {
    const done = await turns.take(settings.connectTimeoutMs);
    if (!done) throw new PoolTimeoutError(settings.connectTimeoutMs);
    return done;
  };
  return {
    kind: 'pglite',
    dump: () => db.dumpDataDir('none'),
    async listen(channel, fn) {
      const done = await take();
      let stop: (() => Promise<void>) | undefined;
      try {
        stop = await db.listen(channel, () => fn());
      } finally {
        done();
      }
      return async () => {
        const turn = await take();
        try {
          await stop?.();
        } finally {
          turn();
        }
      };
    },
    async query(text, params) {
      const done = await take();
      try {
        return await run(text, params);
      } finally {
        done();
      }
    },
    async connect(): Promise<EngineConnection> {
      const done = await take();
      let released = false;
      return {
        query: run,
        exec: async (text) => {
          await db.exec(text);
        },
        release: () => {
          if (released) return;
          released = true;
          done();
        },
      };
    },
    async close() {
      await turns.closed(settings.connectTimeoutMs);
      await db.close();
    },
  };
}
