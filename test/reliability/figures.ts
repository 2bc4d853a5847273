/**
 * The figures the reliability suite reports: each test adds its counts to its own task, and
 * the reporter sums them over the run.
 * @module
 */

/** The counts one test contributes to the closing report. */
export interface Figures {
  /** Requests sent to a service, over a socket or through inject(). */
  requestsSent: number;
  /** Requests that went wrong in a way the test counts as a failure of the service. */
  failures: number;
  /** Malformed requests among those sent. */
  malformedTried: number;
  /** Responses with a 5xx status. */
  serverErrors: number;
  /** Log lines the service accepted that never reached its output. */
  logLinesLost: number;
  /** The service's peak RSS while it received a 200 MB upload, in MiB. */
  uploadPeakRssMb: number;
  /** How much that peak exceeds the RSS before the upload, in MiB. */
  uploadRssGrowthMb: number;
  /** The service's RSS before one client floods a slow WebSocket handler, in MiB. */
  wsFloodRssBeforeMb: number;
  /** The service's peak RSS during that flood, in MiB. */
  wsFloodPeakRssMb: number;
  /** The exit code of a shutdown with WebSocket clients that ignore the close frame. */
  wsDeafShutdownExitCode: number;
  /** How long that shutdown took, from the signal to the exit, in ms. */
  wsDeafShutdownMs: number;
  /** Time to the 401 of a 5 MiB upload sent without a token, in ms. */
  uploadRefusalMs: number;
  /** How fast keelson/logger's stdout writer fills a pipe read at full speed, in MB/s. */
  logPipeMBps: number;
  /** How fast pino fills the same pipe, in MB/s. */
  pinoPipeMBps: number;
  /** keelson/db, pool exhausted (max 2, connect timeout 200 ms): the slowest 503, in ms. */
  dbPoolSlowest503Ms: number;
  /** keelson/db: from the end of that load to the next 200, in ms. */
  dbPoolRecoverMs: number;
  /** keelson/db: from PostgreSQL accepting connections again to the service's next 200, in ms. */
  dbOutageRecoverMs: number;
}

declare module 'vitest' {
  interface TaskMeta {
    /** This test's contribution to the closing report. */
    figures?: Partial<Figures>;
  }
}

/** The order and wording of the figures in the closing report. */
export const FIGURE_LABELS: Readonly<Record<keyof Figures, string>> = {
  requestsSent: 'requests sent',
  failures: 'failures',
  malformedTried: 'malformed inputs tried',
  serverErrors: '5xx seen',
  logLinesLost: 'log lines lost',
  uploadPeakRssMb: 'peak RSS during a 200 MB upload (MiB)',
  uploadRssGrowthMb: 'RSS growth during that upload (MiB)',
  wsFloodRssBeforeMb: 'RSS before a WebSocket flood (MiB)',
  wsFloodPeakRssMb: 'peak RSS during it (MiB)',
  wsDeafShutdownExitCode: 'exit code of a shutdown with WebSocket clients ignoring the close',
  wsDeafShutdownMs: 'its time (ms)',
  uploadRefusalMs: 'time to 401 for a 5 MiB upload without a token (ms)',
  logPipeMBps: 'log to a pipe (MB/s)',
  pinoPipeMBps: 'pino to the same pipe (MB/s)',
  dbPoolSlowest503Ms: 'database pool exhausted: slowest 503 (ms)',
  dbPoolRecoverMs: 'pool recovered after (ms)',
  dbOutageRecoverMs: 'PostgreSQL restarted: next 200 after (ms)',
};

/** Adds `counts` to what `meta` already holds. */
export function addFigures(meta: { figures?: Partial<Figures> }, counts: Partial<Figures>): void {
  meta.figures ??= {};
  const figures = meta.figures;
  for (const [key, value] of Object.entries(counts) as [keyof Figures, number][]) {
    figures[key] = (figures[key] ?? 0) + value;
  }
}
