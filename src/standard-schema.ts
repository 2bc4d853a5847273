import type { StandardSchemaV1 } from '@standard-schema/spec';

/** Whether `value` is a Standard Schema (Zod 4, Valibot, ArkType …): it has a `~standard` member. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value
  );
}
