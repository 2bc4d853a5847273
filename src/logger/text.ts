import { localTimestamp } from './clock.js';
import { formatDuration, type LineEncoder, type LogLevel, type RequestLogEntry } from './entry.js';
import { escapeMultiline, escapeText } from './escape.js';
import { textFields } from './fields.js';

const PREFIX: Readonly<Record<LogLevel, string>> = {
  debug: '[DEBUG] ',
  info: '[INFO] ',
  warn: '[WARN] ',
  error: '[ERROR] ',
};

function textEncoderWith(escapeFn: (text: string) => string): LineEncoder {
  return {
    escape: escapeFn,

    message(level: LogLevel, escapedMessage: string, ms: number, fields: string): string {
      return `${PREFIX[level]}${localTimestamp(ms)} ${escapedMessage}${fields}\n`;
    },

    fields: textFields,

    request(level: LogLevel, entry: RequestLogEntry, ms: number): string {
      const line =
        `${PREFIX[level]}${localTimestamp(ms)} ${escapeText(entry.method)} ` +
        `${escapeText(entry.path)} ${entry.status} ${formatDuration(entry.durationMs)}`;
      return entry.error === undefined ? `${line}\n` : `${line} - ${escapeFn(entry.error)}\n`;
    },
  };
}

/**
 * The text layout: `[INFO] 2026-11-22 14:03:07 message`, local time, one line per entry;
 * control characters in what the caller supplied are escaped.
 */
export const textEncoder: LineEncoder = textEncoderWith(escapeText);

/**
 * The text layout in development: the same lines, but a stack (any multi-line text) keeps one
 * frame a line, each continuation line indented so it never reads as an entry of its own.
 */
export const devTextEncoder: LineEncoder = textEncoderWith(escapeMultiline);
