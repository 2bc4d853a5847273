/**
 * The media types of a route's success responses, from its `media.responses`: one, several,
 * or either by status.
 * @module
 */
import type { MediaTypes } from '../routing/types.js';

const JSON_TYPES: readonly string[] = ['application/json'];

/** The media types of the success response with a given status. */
export type MediaOf = (status: number) => readonly string[];

function isType(t: unknown): t is string {
  return typeof t === 'string' && t.trim() !== '';
}

function listOf(value: unknown): readonly string[] | undefined {
  if (isType(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isType)) return [...value];
  return undefined;
}

/**
 * How a route's successes are typed: JSON unless `media` says otherwise. Throws, naming `where`,
 * on an empty list or a media type that is not a string.
 */
export function responseMedia(
  where: string,
  media: MediaTypes | Readonly<Record<number, MediaTypes>> | undefined,
): MediaOf {
  if (media === undefined) return () => JSON_TYPES;
  const all = listOf(media);
  if (all) return () => all;
  const refuse = () =>
    new Error(
      `${where}: media.responses must be a media type, a non-empty list of them, or either by status, got ${JSON.stringify(media)}`,
    );
  if (typeof media !== 'object' || media === null || Array.isArray(media)) throw refuse();
  const byStatus = new Map<number, readonly string[]>();
  for (const [status, types] of Object.entries(media)) {
    const list = listOf(types);
    if (!list) throw refuse();
    byStatus.set(Number(status), list);
  }
  return (status) => byStatus.get(status) ?? JSON_TYPES;
}
