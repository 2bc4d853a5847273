/**
 * A Standard Schema's JSON Schema side (Standard JSON Schema), draft 2020-12.
 * @module
 */
import type { Schema } from '../routing/types.js';
import type { JsonSchema } from './types.js';

/** Which side of a schema: what a client sends (`input`) or what the server answers (`output`). */
export type Side = 'input' | 'output';

interface Converter {
  input?: (options: { target: string }) => unknown;
  output?: (options: { target: string }) => unknown;
}

/**
 * The draft 2020-12 JSON Schema of one side of `schema`. `part` names the route and the part in
 * the error thrown when the schema has no JSON Schema side or its converter refuses.
 */
export function toJsonSchema(schema: Schema, side: Side, part: string): JsonSchema {
  const std = schema?.['~standard'] as
    | (Schema['~standard'] & { jsonSchema?: Converter })
    | undefined;
  if (typeof std !== 'object' || std === null) {
    throw new Error(`${part} is not a Standard Schema value (Zod 4, Valibot, ArkType …)`);
  }
  const convert = std.jsonSchema?.[side];
  if (typeof convert !== 'function') {
    throw new Error(
      `${part} (vendor ${std.vendor}) has no JSON Schema side (~standard.jsonSchema), so the OpenAPI document cannot describe it; use a library that implements Standard JSON Schema (Zod 4, ArkType) or wrap it (Valibot: toStandardJsonSchema from @valibot/to-json-schema), or mark the route hidden`,
    );
  }
  let json: unknown;
  try {
    json = convert.call(std.jsonSchema, { target: 'draft-2020-12' });
  } catch (err) {
    throw new Error(`${part} cannot be expressed as JSON Schema: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error(`${part}: its JSON Schema converter returned ${typeof json}, not an object`);
  }
  return json as JsonSchema;
}

/**
 * Whether `schema` accepts `undefined`, i.e. whether the part may be left out. An asynchronous
 * schema cannot answer at startup, so it counts as required.
 */
export function acceptsUndefined(schema: Schema): boolean {
  let answer = optional.get(schema);
  if (answer === undefined) {
    answer = tryUndefined(schema);
    optional.set(schema, answer);
  }
  return answer;
}

const optional = new WeakMap<Schema, boolean>();

function tryUndefined(schema: Schema): boolean {
  try {
    const result = schema['~standard'].validate(undefined);
    if (result instanceof Promise) {
      result.catch(() => {});
      return false;
    }
    return !result.issues;
  } catch {
    return false;
  }
}
