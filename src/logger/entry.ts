/** The severity of a log entry. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One request entry, written after the response. */
export interface RequestLogEntry {
  /** The HTTP method, such as `GET`. */
  method: string;
  /** The request path, such as `/users/42`. */
  path: string;
  /** The response status code; it sets the level: <400 info, 4xx warn, >=500 error. */
  status: number;
  /** How long the request took, in milliseconds; printed with one decimal, as `1.2ms`. */
  durationMs: number;
  /** The request id; written as `"requestId"` in JSON only. */
  requestId?: string;
  /** The client's address (with `trustProxy`, from `X-Forwarded-For`); JSON `"ip"` only. */
  ip?: string;
  /** The trace id of the request; written as `"traceId"` in JSON only. */
  traceId?: string;
  /** What went wrong, such as the stack of a 5xx; JSON `"error"`, text ` - <error>`. */
  error?: string;
  /** The operationId of the deprecated route called; JSON `"deprecated"` only. */
  deprecated?: string;
}

/** Turns entries into complete lines, newline included; one implementation per LogFormat. */
export interface LineEncoder {
  /** Makes caller-supplied text safe inside a message; returns `text` itself when it is. */
  escape(text: string): string;
  /**
   * The line for a message entry, its text already escaped, written at `ms` (epoch ms);
   * `fields` is what `fields()` made of a child logger's fields, `''` for none.
   */
  message(level: LogLevel, escapedMessage: string, ms: number, fields: string): string;
  /** Encodes a child logger's fields once, for every entry it writes. */
  fields(fields: Readonly<Record<string, unknown>>): string;
  /** The line for a request entry written at `ms` (epoch milliseconds). */
  request(level: LogLevel, entry: RequestLogEntry, ms: number): string;
}

/** The level of a request entry: below 400 info, 4xx warn, 500 and above error. */
export function requestLevel(status: number): LogLevel {
  if (status >= 500) return 'error';
  return status >= 400 ? 'warn' : 'info';
}

/** A duration in milliseconds with one decimal and its unit, as in `1.2ms`. */
export function formatDuration(durationMs: number): string {
  // Integer arithmetic instead of toFixed(1), which costs more than the rest of the line.
  if (!(durationMs >= 0 && durationMs < 1e12)) return `${durationMs.toFixed(1)}ms`;
  const tenths = Math.round(durationMs * 10);
  return `${Math.floor(tenths / 10)}.${tenths % 10}ms`;
}
