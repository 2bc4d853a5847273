/**
 * `columns: 'camelCase'`: `created_at` becomes `createdAt` in every row.
 * @module
 */

const cache = new Map<string, string>();

/** `snake_case` to `camelCase`; names without an underscore are left as they are. */
export function camelCase(name: string): string {
  let out = cache.get(name);
  if (out === undefined) {
    out = name.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
    if (cache.size < 10_000) cache.set(name, out);
  }
  return out;
}

/** The rows with their keys in camelCase (new objects; the driver's are left alone). */
export function camelRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const key in row) out[camelCase(key)] = row[key];
    return out;
  });
}
