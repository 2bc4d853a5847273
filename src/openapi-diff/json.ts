/**
 * Reading plain JSON documents: objects, JSON pointers and `$ref`s inside one document.
 * @module
 */

/** A JSON object. */
export type Json = { readonly [key: string]: unknown };

/** True for a plain object (not an array, not null). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object `value` is, or an empty one. */
export function objectOf(value: unknown): Json {
  return isObject(value) ? value : {};
}

/** One JSON pointer token, escaped (`/` → `~1`, `~` → `~0`). */
export function token(key: string | number): string {
  const text = String(key);
  return text.includes('~') || text.includes('/')
    ? text.replaceAll('~', '~0').replaceAll('/', '~1')
    : text;
}

/** `pointer` with `keys` appended. */
export function child(pointer: string, ...keys: (string | number)[]): string {
  return [pointer, ...keys.map(token)].join('/');
}

/** A value with the pointer where it was found (after following any `$ref`). */
export interface Located {
  /** The value, never a `$ref` object. */
  readonly value: Json;
  /** Its JSON pointer, `#/…`. */
  readonly at: string;
  /** The component it came from (`#/components/schemas/User`), for cycle detection. */
  readonly ref?: string;
}

/**
 * Follows `$ref`s inside `doc` (local ones, `#/…`) from `value` found at `at`; a missing target
 * or a cycle of `$ref`s to `$ref`s gives an empty object.
 */
export function resolve(doc: Json, value: unknown, at: string): Located {
  let current = value;
  let where = at;
  let ref: string | undefined;
  for (let hops = 0; hops < 32; hops++) {
    if (!isObject(current) || typeof current.$ref !== 'string') {
      return { value: objectOf(current), at: where, ...(ref ? { ref } : {}) };
    }
    ref = current.$ref;
    where = ref;
    current = lookup(doc, ref);
  }
  return { value: {}, at: where };
}

function lookup(doc: Json, pointer: string): unknown {
  if (!pointer.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}
