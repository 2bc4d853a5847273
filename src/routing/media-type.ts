/**
 * The marker a schema carries when its part does not travel as JSON: the docs read it to pick
 * the media type of a request body or a response.
 * @module
 */

/** The key of the marker: `schema['~keelson'].mediaType`. */
export const MEDIA_MARKER = '~keelson';

/** The media type of an event stream (`c.sse()` answers, `eventStream()` responses). */
export const EVENT_STREAM_TYPE = 'text/event-stream';

/**
 * A schema whose part travels as another media type than JSON, e.g. `multipart/form-data` for
 * `multipart({...})` bodies and `text/event-stream` for `eventStream()` responses.
 */
export interface MediaTyped {
  /** Keelson's marker; `mediaType` is the part's media type in the OpenAPI document. */
  readonly '~keelson': { readonly mediaType: string };
}

/** The media type a schema is marked with, or undefined for a plain (JSON) schema. */
export function mediaTypeOf(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !(MEDIA_MARKER in schema)) return undefined;
  const marker = (schema as MediaTyped)[MEDIA_MARKER];
  return typeof marker?.mediaType === 'string' ? marker.mediaType : undefined;
}
