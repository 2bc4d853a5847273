/**
 * Server-sent events: `c.sse(source)` and the `eventStream()` response schema.
 * @module
 */
export { formatEvent, type ServerSentEvent } from './format.js';
export { EVENT_STREAM_TYPE, eventStream } from './schema.js';
export { type SseOptions, sendEventStream } from './send.js';
