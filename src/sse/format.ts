/**
 * One server-sent event as the lines of the `text/event-stream` format.
 * @module
 */

/** One event of an event stream: `data` is JSON-encoded unless it is a string. */
export interface ServerSentEvent {
  /** The payload; a string is sent as-is (line by line), anything else as JSON. */
  data: unknown;
  /** The event type (`event:`); the client's `onmessage` gets events without one. */
  event?: string;
  /** The event id (`id:`); the client sends the last one back as `Last-Event-ID` on reconnect. */
  id?: string;
  /** How long the client waits before reconnecting, in milliseconds (`retry:`). */
  retry?: number;
}

/** A comment line: keeps proxies and the client from timing the stream out. */
export const HEARTBEAT = ': heartbeat\n\n';

// A line break inside `event` or `id` would start a field of the attacker's choosing.
const LINE_BREAK = /[\r\n\0]/;

/** The wire form of `event`; throws a TypeError naming the bad field. */
export function formatEvent(event: ServerSentEvent): string {
  if (typeof event !== 'object' || event === null) {
    throw new TypeError(
      `an event must be an object { data, event?, id?, retry? }, got ${typeof event}`,
    );
  }
  let out = '';
  if (event.id !== undefined) out += `id: ${field('id', event.id)}\n`;
  if (event.event !== undefined) out += `event: ${field('event', event.event)}\n`;
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0) {
      throw new TypeError(`an event's retry must be an integer >= 0, got ${String(event.retry)}`);
    }
    out += `retry: ${event.retry}\n`;
  }
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  if (data === undefined) throw new TypeError('an event needs data that JSON can encode');
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

function field(name: string, value: unknown): string {
  const text = String(value);
  if (LINE_BREAK.test(text)) {
    throw new TypeError(
      `an event's ${name} must not contain a line break, got ${JSON.stringify(text)}`,
    );
  }
  return text;
}
