import type { StandardSchemaV1 } from '@standard-schema/spec';

/** Whether `value` is a Standard Schema (Zod 4, Valibot, ArkType …): it has a `~standard` member. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value
  );
}

/** An issue's path as dotted text, after `prefix` when given: `body.items.0.name`. */
export function issuePath(issue: StandardSchemaV1.Issue, prefix?: string): string {
  const keys = (issue.path ?? []).map((seg) =>
    String(typeof seg === 'object' && seg !== null ? seg.key : seg),
  );
  return (prefix === undefined ? keys : [prefix, ...keys]).join('.');
}
