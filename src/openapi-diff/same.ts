/**
 * Which components are unchanged, `$ref`s included: the comparison skips them, so a document
 * whose every operation answers the shared `Problem` compares it once, not once per response.
 * @module
 */
import { isObject, type Json, resolve } from './json.js';

function refsIn(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.add(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/**
 * A test, memoised, of whether the target of `ref` is the same JSON in both documents and so is
 * everything it refers to (a cycle counts as the same).
 */
export function unchangedRefs(base: Json, current: Json): (ref: string) => boolean {
  const known = new Map<string, boolean>();
  const unchanged = (ref: string): boolean => {
    const cached = known.get(ref);
    if (cached !== undefined) return cached;
    known.set(ref, true);
    const b = resolve(base, { $ref: ref }, ref).value;
    const c = resolve(current, { $ref: ref }, ref).value;
    const same =
      JSON.stringify(b) === JSON.stringify(c) && [...refsIn(b, new Set())].every(unchanged);
    known.set(ref, same);
    return same;
  };
  return unchanged;
}
