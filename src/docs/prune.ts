/**
 * Leaves out the components nothing in the document refers to (e.g. the id of a params schema,
 * whose properties become parameters).
 * @module
 */
import type { JsonSchema } from './types.js';

const REF = /"\$ref":"#\/components\/schemas\/([^"/]+)/g;

function refsIn(value: unknown): string[] {
  return Array.from(JSON.stringify(value).matchAll(REF), (m) => decodeURIComponent(m[1]!));
}

/** The components reachable from `paths`, in their order. */
export function pruneComponents(
  schemas: Readonly<Record<string, JsonSchema>>,
  paths: unknown,
): Record<string, JsonSchema> {
  const used = new Set<string>();
  const queue = refsIn(paths);
  while (queue.length) {
    const name = queue.pop()!;
    if (used.has(name) || !(name in schemas)) continue;
    used.add(name);
    queue.push(...refsIn(schemas[name]));
  }
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(schemas)) if (used.has(name)) out[name] = schema;
  return out;
}
