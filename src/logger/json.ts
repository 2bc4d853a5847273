import { isoTimestamp } from './clock.js';
import { formatDuration, type LineEncoder, type LogLevel, type RequestLogEntry } from './entry.js';
import { jsonFields } from './fields.js';

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
  escape: jsonEscape,

  message(level: LogLevel, escapedMessage: string, ms: number, fields: string): string {
    return `${OPEN[level]}${isoTimestamp(ms)}","message":"${escapedMessage}"${fields}}\n`;
  },

  fields: jsonFields,

  request(level: LogLevel, entry: RequestLogEntry, ms: number): string {
    let line =
      `${OPEN[level]}${isoTimestamp(ms)}","method":${jsonString(entry.method)},` +
      `"path":${jsonString(entry.path)},"status":${jsonNumber(entry.status)},` +
      `"duration":"${formatDuration(entry.durationMs)}"`;
    if (entry.requestId !== undefined) line += `,"requestId":${jsonString(entry.requestId)}`;
    if (entry.ip !== undefined) line += `,"ip":${jsonString(entry.ip)}`;
    if (entry.traceId !== undefined) line += `,"traceId":${jsonString(entry.traceId)}`;
    if (entry.error !== undefined) line += `,"error":${jsonString(entry.error)}`;
    if (entry.deprecated !== undefined) line += `,"deprecated":${jsonString(entry.deprecated)}`;
    return `${line}}\n`;
  },
};

// Most strings need no escaping, and testing for that is several times faster than
// JSON.stringify. Surrogates go the slow way so that a lone one is escaped, not mangled.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must be escaped.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

// The inside of a JSON string: what jsonString puts between the quotes.
function jsonEscape(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value).slice(1, -1) : value;
}

// NaN and Infinity are not JSON; a broken status must not break the line.
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}
