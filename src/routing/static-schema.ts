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
  const schema: StaticSchema<T> = {
    '~standard': {
      version: 1,
      vendor: 'keelson',
      validate: (value: unknown) => ({ value: value as T }),
      jsonSchema: { input: convert, output: convert },
    },
  };
  describing.add(schema);
  return schema;
}

const describing = new WeakSet<object>();

/** Whether `schema` came from `staticSchema`: it describes an answer but cannot check one. */
export function describesOnly(schema: object): boolean {
  return describing.has(schema);
}
