/**
 * keelson/logger: leveled, printf-style log entries as text or JSON lines, written through a
 * buffered, non-blocking stdout that is flushed on exit.
 * @module
 */

export type { LogLevel, RequestLogEntry } from './entry.js';
export type { LogFields } from './fields.js';

// Formats and entries
export { LogFormat } from './log-format.js';
// Loggers
export { Logger, type LoggerOptions, newLogger, newLoggerWithFormat } from './logger.js';

// Writers
export type { LogWriter } from './writer.js';
