import { EVENT_STREAM_TYPE, MEDIA_MARKER, type MediaTyped } from '../routing/media-type.js';
import { type StaticSchema, staticSchema } from '../routing/static-schema.js';

export { EVENT_STREAM_TYPE } from '../routing/media-type.js';

/**
 * The response schema of a route that answers with `c.sse()`: the docs show the response as
 * `text/event-stream`.
 * @example get('/ticks', { responses: { 200: eventStream('one event per tick') } }, (c) => c.sse(ticks()))
 */
export function eventStream(
  description = 'A stream of server-sent events.',
): StaticSchema<string> & MediaTyped {
  return Object.assign(staticSchema<string>({ type: 'string', description }), {
    [MEDIA_MARKER]: { mediaType: EVENT_STREAM_TYPE },
  });
}
