import { isoTimestamp } from './clock.js';
import { formatDuration, type LineEncoder, type LogLevel, type RequestLogEntry } from './entry.js';

const OPEN: Readonly<Record<LogLevel, string>> = {
  debug: '{"level":"debug","time":"',
  info: '{"level":"info","time":"',
  warn: '{"level":"warn","time":"',
  error: '{"level":"error","time":"',
};

/**
 * The JSON layout: one object per line, keys in a fixed order, as in
 * `{"level":"info","time":"2026-11-22T14:03:07.123Z","message":"..."}`.
 */
export const jsonEncoder: LineEncoder = {
  message(level: LogLevel, message: string, ms: number): string {
    return `${OPEN[level]}${isoTimestamp(ms)}","message":${JSON.stringify(message)}}\n`;
  },

  request(level: LogLevel, entry: RequestLogEntry, ms: number): string {
    let line =
      `${OPEN[level]}${isoTimestamp(ms)}","method":${JSON.stringify(entry.method)},` +
      `"path":${JSON.stringify(entry.path)},"status":${jsonNumber(entry.status)},` +
      `"duration":"${formatDuration(entry.durationMs)}"`;
    if (entry.traceId !== undefined) line += `,"traceId":${JSON.stringify(entry.traceId)}`;
    if (entry.error !== undefined) line += `,"error":${JSON.stringify(entry.error)}`;
    return `${line}}\n`;
  },
};

// NaN and Infinity are not JSON; a broken status must not break the line.
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}
