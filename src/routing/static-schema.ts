import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** A schema that is both a Standard Schema (it accepts any value) and a JSON Schema. */
export type StaticSchema<T> = StandardSchemaV1<T> & StandardJSONSchemaV1<T>;

/**
 * Wraps a fixed JSON Schema as a Standard Schema for Keelson's own routes, so the core needs
 * no schema library. It does not validate: it only describes and serializes what Keelson sends.
 */
export function staticSchema<T>(jsonSchema: Record<string, unknown>): StaticSchema<T> {
  const frozen = Object.freeze(jsonSchema);
  const convert = () => structuredClone(frozen) as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'keelson',
      validate: (value: unknown) => ({ value: value as T }),
      jsonSchema: { input: convert, output: convert },
    },
  };
}
