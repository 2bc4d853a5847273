/**
 * Comparing bodies by media type, and response headers.
 * @module
 */
import type { Direction, SchemaContext } from './context.js';
import { child, type Json, objectOf, resolve } from './json.js';
import { compareSchema } from './schema.js';

/** Where one body or header set is, in each document. */
export interface Pair {
  /** The base object (a request body or a response), `$ref`s followed. */
  readonly base: Json;
  /** Its pointer. */
  readonly baseAt: string;
  /** The current object. */
  readonly current: Json;
  /** Its pointer. */
  readonly currentAt: string;
}

/**
 * Compares `content`: a media type removed breaks (a client sending it gets 415, a client
 * accepting only it gets nothing it reads); one added does not; the schemas of the others are
 * compared.
 */
export function compareContent(ctx: SchemaContext, pair: Pair): void {
  const bc = objectOf(pair.base.content);
  const cc = objectOf(pair.current.content);
  for (const type of Object.keys(bc)) {
    const bAt = child(pair.baseAt, 'content', type);
    const cAt = child(pair.currentAt, 'content', type);
    if (!(type in cc)) {
      ctx.report({
        breaking: true,
        code: 'media-type-removed',
        location: bAt,
        message: `media type removed from ${ctx.subject}: ${type}`,
      });
      continue;
    }
    const bm = objectOf(bc[type]);
    const cm = objectOf(cc[type]);
    compareSchema(
      { ...ctx, seen: new Set() },
      bm.schema ?? {},
      child(bAt, 'schema'),
      cm.schema ?? {},
      child(cAt, 'schema'),
    );
  }
  for (const type of Object.keys(cc)) {
    if (type in bc) continue;
    ctx.report({
      breaking: false,
      code: 'media-type-added',
      location: child(pair.currentAt, 'content', type),
      message: `media type added to ${ctx.subject}: ${type}`,
    });
  }
}

/** Compares the headers of one response: one removed breaks the clients that read it. */
export function compareHeaders(ctx: SchemaContext, pair: Pair): void {
  const lower = (headers: Json) =>
    new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), { name, value }]));
  const bh = lower(objectOf(pair.base.headers));
  const ch = lower(objectOf(pair.current.headers));
  for (const [key, { name, value }] of bh) {
    const bAt = child(pair.baseAt, 'headers', name);
    const now = ch.get(key);
    if (!now) {
      const message = `header removed from ${ctx.subject}: ${name}`;
      ctx.report({ breaking: true, code: 'header-removed', location: bAt, message });
      continue;
    }
    const cAt = child(pair.currentAt, 'headers', now.name);
    const bs = resolve(ctx.base, value, bAt);
    const cs = resolve(ctx.current, now.value, cAt);
    const sub = { ...ctx, subject: `header ${name} of ${ctx.subject}`, seen: new Set<string>() };
    compareSchema(
      sub,
      bs.value.schema ?? {},
      child(bs.at, 'schema'),
      cs.value.schema ?? {},
      child(cs.at, 'schema'),
    );
  }
  for (const [key, { name }] of ch) {
    if (bh.has(key)) continue;
    const location = child(pair.currentAt, 'headers', name);
    const message = `header added to ${ctx.subject}: ${name}`;
    ctx.report({ breaking: false, code: 'header-added', location, message });
  }
}

/** A context for one direction and subject. */
export function contextFor(
  parent: Omit<SchemaContext, 'direction' | 'subject' | 'fieldWord'>,
  direction: Direction,
  subject: string,
  fieldWord = `${direction} field`,
): SchemaContext {
  return { ...parent, direction, subject, fieldWord, seen: new Set() };
}
