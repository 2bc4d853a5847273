import { localTimestamp } from './clock.js';
import { formatDuration, type LineEncoder, type LogLevel, type RequestLogEntry } from './entry.js';
import { escapeText } from './escape.js';

const PREFIX: Readonly<Record<LogLevel, string>> = {
  debug: '[DEBUG] ',
  info: '[INFO] ',
  warn: '[WARN] ',
  error: '[ERROR] ',
};

/**
 * The text layout: `[INFO] 2026-11-22 14:03:07 message`, local time, one line per entry;
 * control characters in what the caller supplied are escaped.
 */
export const textEncoder: LineEncoder = {
  escape: escapeText,

  message(level: LogLevel, escapedMessage: string, ms: number): string {
    return `${PREFIX[level]}${localTimestamp(ms)} ${escapedMessage}\n`;
  },

  request(level: LogLevel, entry: RequestLogEntry, ms: number): string {
    const line =
      `${PREFIX[level]}${localTimestamp(ms)} ${escapeText(entry.method)} ` +
      `${escapeText(entry.path)} ${entry.status} ${formatDuration(entry.durationMs)}`;
    return entry.error === undefined ? `${line}\n` : `${line} - ${escapeText(entry.error)}\n`;
  },
};
