/**
 * How a child logger's fields (`logger.with({ requestId })`) are written: encoded once when
 * the child is made, appended to every entry it writes.
 * @module
 */
import { escapeText } from './escape.js';
import { formatMessage } from './format.js';

/** The fields of a child logger: names and values, such as `{ requestId: 'abc' }`. */
export type LogFields = Readonly<Record<string, unknown>>;

// A field name is printed as is only when it is a plain identifier-like word.
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// The members every JSON entry already has: a field may not take their place.
const RESERVED = new Set(['level', 'time', 'message']);
// A text value needs quotes when it is empty or has a space, a quote or an `=`.
const NEEDS_QUOTES = /[\s"=]|^$/;

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : formatMessage('%O', [value]);
}

/** ` key=value` pairs for the text layout; values with spaces are quoted, all escaped. */
export function textFields(fields: LogFields): string {
  let out = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const name = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
    const text = textOf(value);
    out += ` ${escapeText(name)}=${escapeText(NEEDS_QUOTES.test(text) ? JSON.stringify(text) : text)}`;
  }
  return out;
}

/** `,"key":value` members for the JSON layout; a value JSON cannot hold becomes its text. */
export function jsonFields(fields: LogFields): string {
  let out = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || RESERVED.has(key)) continue;
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      json = undefined;
    }
    out += `,${JSON.stringify(key)}:${json ?? JSON.stringify(textOf(value))}`;
  }
  return out;
}
