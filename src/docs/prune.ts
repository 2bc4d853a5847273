/**
 * Leaves out the components nothing in the document refers to (e.g. the id of a params schema,
 * whose properties become parameters).
 * @module
 */
import type { JsonSchema } from './types.js';

const PREFIX = '#/components/schemas/';

// A walk, not a regex over JSON.stringify: the document of 1,000 routes is megabytes of JSON.
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, out);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      if (key === '$ref' && typeof item === 'string') {
        if (item.startsWith(PREFIX))
          out.push(decodeURIComponent(item.slice(PREFIX.length).split('/')[0]!));
      } else {
        refsIn(item, out);
      }
    }
  }
  return out;
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
